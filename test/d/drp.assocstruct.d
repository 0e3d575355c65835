/*
 * A struct-valued element that finds no room in dynvarsize is a dynamic variable drop, and
 * the member store through it faults (invalid address 0), as DTrace's by-reference element
 * does: dynvarsize=1k holds three chunks of (header, key, 256-byte value) here.
 */
#pragma D option quiet
#pragma D option dynvarsize=1k

struct s { int a; string n; } r[int];
int i;

tick-1ms
/i < 10/
{
	i++;
	r[i].a = i;
}

tick-1ms
/i == 10/
{
	printf("%d %d %d\n", r[1].a, r[2].a, r[3].a);
	exit(0);
}
