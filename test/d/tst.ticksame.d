/* Two clauses on tick-10ms are one probe (as the profile provider has one per name): they run
 * in program order in the same firing. */
#pragma D option quiet

tick-10ms
{
	n++;
	printf("first %d\n", n);
}

tick-10ms
{
	printf("second %d\n", n);
	exit(0);
}
