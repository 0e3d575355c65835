/* Once exit( ) has run, the probe's later clauses do not run, even in the same firing (DTrace's
 * kernel evaluates no enabling but the dtrace provider's then): no second exit( ), no printf;
 * END still runs. */
#pragma D option quiet

tick-1ms
{
	exit(3);
}

tick-1ms
{
	printf("not printed\n");
	exit(4);
}

END
{
	printf("end\n");
}
