/* two type names in one declaration */
BEGIN
{
	x = (char int)1;
	exit(0);
}
