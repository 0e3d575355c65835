/* ARGS: -b 40 */
/* A clause of assignments only takes no room in the buffer: the three clauses of this firing
 * fit 40 bytes exactly (16 for the printf, none for the assignment, 24 for printf and exit). */
#pragma D option quiet

BEGIN
{
	printf("a\n");
}

BEGIN
{
	n = 1;
}

BEGIN
{
	printf("%d\n", n);
	exit(0);
}
