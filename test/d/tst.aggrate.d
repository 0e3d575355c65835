/* ARGS: -x aggrate=1ms -x switchrate=1s */
/* With aggrate shorter than switchrate the consumer reads the buffers every aggrate, so
 * printa( ) shows the aggregation as it was at most aggrate earlier. */
#pragma D option quiet

tick-10ms
{
	@n = count();
}

tick-10ms
/++i == 3/
{
	printa("%@d\n", @n);
}

tick-10ms
/i == 5/
{
	exit(0);
}
