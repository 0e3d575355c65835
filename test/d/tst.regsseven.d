/* Seven live values are as many as DIF's seven allocatable registers (%r1-%r7) hold: this
 * one level less than err.D_NOREG.nested.d compiles and sums to 7; a struct key built next
 * to other live values (3 registers for its bytes) fits too. */
#pragma D option quiet

struct pair { int lo; char tag; };
struct pair p;
int seen[struct pair, string, int];

BEGIN
{
	v = 1;
	p.lo = 5; p.tag = 'x';
	seen[p, "k", v + (v + v)] = v + (v + (v + (v + (v + (v + (v))))));
	printf("%d %d\n", v + (v + (v + (v + (v + (v + (v)))))), seen[p, "k", 3]);
	exit(0);
}
