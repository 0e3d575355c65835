/* ARGS: -x ncpus=4 */
/* profile-N fires on every CPU, tick-N on one; per-CPU aggregations are merged */
#pragma D option quiet

profile-100hz
{
	@p[cpu] = count();
	@all = count();
}

tick-100hz
{
	@t[cpu] = count();
}

tick-1s
{
	exit(0);
}
