/* the consumer reads setopt( )'s option as a string literal */
BEGIN
{
	x = "quiet";
	setopt(x);
}
