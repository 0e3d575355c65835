/* comma-separated descriptions share one body; clauses run in program order */
#pragma D option quiet

BEGIN, dtrace:::END
{
	printf("%s first\n", probename);
}

dtrace:::BEGIN
{
	printf("%s second\n", probename);
}

:::BEGIN
{
	exit(0);
}
