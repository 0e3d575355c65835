/* a \x escape takes every hex digit that follows and keeps the low byte (no overflow: found by
 * fuzz_d_compile, the accumulator overflowed int before) */
#pragma D option quiet

BEGIN
{
	printf("%d %d\n", '\x41122222222222222222222222222222', '\x141');
	exit(0);
}
