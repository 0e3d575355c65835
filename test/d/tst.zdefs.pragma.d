/*
 * #pragma D option zdefs is -Z: a description that matches nothing is no error.
 */
#pragma D option quiet
#pragma D option zdefs

nosuchprovider:::nosuchprobe
{
	printf("never\n");
}

BEGIN
{
	printf("ran\n");
	exit(0);
}
