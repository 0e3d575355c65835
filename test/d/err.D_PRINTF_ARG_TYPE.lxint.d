/* %lx is libdtrace's pfcheck_xlong: a long or unsigned long, not an int constant. */
BEGIN
{
	printf("%lx\n", 5);
}
