/* Structs and unions as associative-array keys: compared by value, all their bytes. */
#pragma D option quiet

struct pt { int x; char tag; };
union u { long l; char c[3]; };
struct pt a, b, c;
union u w;
string names[struct pt, int];

BEGIN
{
	a.x = 1; a.tag = 'a';
	b.x = 1; b.tag = 'a';
	c.x = 1; c.tag = 'c';
	seen[a] = 10;
	seen[b] += 5;
	seen[c] = 7;
	w.l = 0x0102030405060708;
	byunion[w, "k"] = 3;
	names[c, 2] = "cee";
	self->by[a] = 4;
	printf("%d %d %d %d %s [%s] %d\n", seen[a], seen[b], seen[c], byunion[w, "k"],
	    names[c, 2], names[a, 2], self->by[b]);
	exit(0);
}
