/* system( ) formats its command as printf does and the consumer runs it, after flushing what
 * it printed before, so the output stays in order */
#pragma D option quiet
#pragma D option destructive

BEGIN
{
	printf("before\n");
	system("echo '%s %d' && echo %x", "run", 42, 255);
	printf("after\n");
	exit(0);
}
