/* ARGS: -x switchrate=0x10MSEC */
/*
 * Rate options take libdtrace's units in either case, and C integers: a bare number is
 * nanoseconds, hz a frequency.
 */
#pragma D option quiet
#pragma D option switchrate=250000000

tick-1s
{
	printf("ok\n");
	exit(0);
}
