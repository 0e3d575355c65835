/* ARGS: -x dynvarsize=2k */
#pragma D option quiet

int i;

tick-1ms
/i < 100/
{
	a[i++] = 1;
}

tick-1ms
/i == 100/
{
	exit(0);
}
