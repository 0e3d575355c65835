/* only the first exit() is recorded: a later clause of the same firing that calls exit()
 * again loses its whole record (its printf too), as in DTrace's kernel; END still runs */
#pragma D option quiet

BEGIN
{
	printf("first\n");
	exit(0);
}

BEGIN
{
	printf("second\n");
	exit(3);
}

END
{
	printf("end\n");
}
