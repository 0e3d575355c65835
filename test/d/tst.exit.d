/* exit(n): the clause finishes, but as in DTrace's kernel the firing's later clauses do not
 * run (tracing is draining: only END and ERROR still fire); then END; status n */
#pragma D option quiet

BEGIN
{
	exit(3);
	printf("rest of the clause still runs\n");
}

BEGIN
{
	printf("later clauses of the same firing do not run\n");
}

tick-1ms
{
	printf("no more probes fire\n");
}

END
{
	printf("end\n");
}
