/* exit(n): the clause finishes, END fires, dtrace exits with n */
#pragma D option quiet

BEGIN
{
	exit(3);
	printf("rest of the clause still runs\n");
}

BEGIN
{
	printf("a later clause does not\n");
}

END
{
	printf("end\n");
}
