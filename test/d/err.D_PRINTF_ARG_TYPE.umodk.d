/*
 * %k prints a stack: umod( ) is an address, not a stack.
 */
BEGIN
{
	printf("%k\n", umod(arg0));
}
