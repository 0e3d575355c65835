/* stack( ) as an aggregation key and as printf's %k value: on the host a stack of no frames
 * (no stacks to walk), printed as libdtrace prints one (a newline) */
#pragma D option quiet

BEGIN
{
	@s[stack(), 7] = count();
	@s[stack(), 7] = count();
	printf("[%k]\n", ustack());
	printa("<%k %d %@d>\n", @s);
	exit(0);
}
