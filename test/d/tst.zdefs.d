/* ARGS: -Z */
/*
 * dtrace -Z: a probe description that matches no probe is permitted (it enables nothing);
 * without -Z it is D_PDESC_ZERO.
 */
#pragma D option quiet

nosuchprovider:::nosuchprobe
{
	printf("never\n");
}

BEGIN
{
	printf("ran\n");
	exit(0);
}
