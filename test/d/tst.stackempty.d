/* stack( ), ustack( ) and jstack( ) run; the host's engine has no stacks to walk: every stack
 * is empty, printed as libdtrace prints a stack of no frames (its leading newline). The
 * board's stacks are real (test/stacks/, docs/profiling.md). */
#pragma D option quiet

BEGIN
{
	printf("[");
	stack();
	printf("|");
	ustack(4);
	printf("|");
	jstack(2, 64);
	printf("] %d\n", stackdepth);
	exit(0);
}
