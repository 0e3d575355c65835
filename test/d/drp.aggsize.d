/* ARGS: -x aggsize=1k */
/* a full aggregation buffer drops new keys and counts them */
#pragma D option quiet

int i;

tick-1ms
/i < 100/
{
	@a[i++] = count();
}

tick-1ms
/i == 100/
{
	exit(0);
}
