/* tick-N and profile-N give arg0 the kernel PC and arg1 the user PC, one of them 0: the host's
 * virtual timers interrupt the dtrace process itself, in user mode. */
#pragma D option quiet

tick-10ms
{
	printf("%s %s\n", arg0 == 0 ? "kernel pc 0" : "kernel pc set",
	    arg1 != 0 ? "user pc set" : "user pc 0");
	exit(0);
}
