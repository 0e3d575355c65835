/* -x noerror: a fault is not reported, ERROR still fires and the other clauses run */
#pragma D option quiet
#pragma D option noerror

ERROR
{
	printf("ERROR fired\n");
}

BEGIN
{
	x = 0;
	y = 1 / x;
}

BEGIN
{
	printf("BEGIN done\n");
	exit(0);
}
