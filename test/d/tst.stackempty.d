/* stack( ), ustack( ) and jstack( ) run, but the kernel has no unwinder: every stack is
 * empty, printed as libdtrace prints a stack of no frames (its leading newline) */
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
