/* ARGS: -x statusrate=5s */
/* END fires when dtrace(1M) would learn of exit( ): at its next status check, every
 * statusrate of (virtual) time. */
#pragma D option quiet

tick-1s
/++n == 2/
{
	t = timestamp;
	exit(0);
}

END
{
	printf("%d\n", (timestamp - t) / 1000000000);
}
