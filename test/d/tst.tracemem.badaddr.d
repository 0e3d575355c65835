/* tracemem of an address outside D's memory faults: the clause records nothing, ERROR fires
 * with the fault and the address, and the next clause runs. */
#pragma D option quiet

BEGIN
{
	printf("not recorded\n");
	tracemem(arg0 + 16, 4);
}

BEGIN
{
	printf("next clause runs\n");
}

ERROR
{
	printf("ERROR probe: action %d fault %d addr %d\n", arg2, arg4, arg5);
}

BEGIN
{
	exit(0);
}
