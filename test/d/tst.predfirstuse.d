/* A predicate may read a variable its own clause creates (libdtrace compiles the clause's
 * actions first when the predicate names one not yet known): here x, then n, are 0. */
#pragma D option quiet

BEGIN
/x == 0 && n == 0/
{
	x++;
	n++;
	n++;
	big = 0x100000000;
	printf("%d %d %d\n", x, n, sizeof (big));
}

BEGIN
/big > 0xffffffff/
{
	exit(0);
}
