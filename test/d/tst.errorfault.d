/* ERROR's arg4 numbers faults as DTrace's DTRACEFLT_* constants do */
#pragma D option quiet

ERROR
{
	printf("%d %d\n", arg4, arg4 == DTRACEFLT_DIVZERO);
	exit(0);
}

BEGIN
{
	x = 0;
	y = 1 / x;
}
