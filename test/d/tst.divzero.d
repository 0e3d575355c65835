#pragma D option quiet

BEGIN
{
	x = 0;
	printf("not recorded %d\n", 1 / x);
}

BEGIN
{
	printf("next clause runs\n");
}

ERROR
{
	printf("ERROR probe: epid %d action %d offset %d fault %d\n", arg1, arg2, arg3, arg4);
}

BEGIN
{
	exit(0);
}
