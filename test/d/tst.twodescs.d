/* A clause whose descriptions name the same probe twice runs twice on it (one enabling per
 * description, as in DTrace). */
#pragma D option quiet

BEGIN, dtrace:::BEGIN
{
	n++;
}

BEGIN
{
	printf("%d\n", n);
	exit(0);
}
