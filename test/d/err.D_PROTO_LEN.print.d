/* print( ) takes one value */
BEGIN
{
	print(1, 2);
}
