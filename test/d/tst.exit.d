/* exit(n): the clause finishes; BEGIN's later clauses do not run (DTrace's kernel evaluates no
 * BEGIN enabling after exit); then only END fires; status n */
#pragma D option quiet

BEGIN
{
	exit(3);
	printf("rest of the clause still runs\n");
}

BEGIN
{
	printf("later BEGIN clauses do not run\n");
}

tick-1ms
{
	printf("no more probes fire\n");
}

END
{
	printf("end\n");
}
