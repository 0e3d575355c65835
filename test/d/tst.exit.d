/* exit(n): the clause finishes and so does this firing; then only END fires; status n */
#pragma D option quiet

BEGIN
{
	exit(3);
	printf("rest of the clause still runs\n");
}

BEGIN
{
	printf("later clauses of the same firing run too\n");
}

tick-1ms
{
	printf("no more probes fire\n");
}

END
{
	printf("end\n");
}
