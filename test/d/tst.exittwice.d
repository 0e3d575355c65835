/* only the first exit() counts: a clause that calls it twice loses its whole record (its
 * printf too) as in DTrace's kernel, tracing drains all the same, and with no exit record
 * the status is 0; END still runs */
#pragma D option quiet

BEGIN
{
	printf("lost\n");
	exit(2);
	exit(3);
}

END
{
	printf("end\n");
}
