/* Translators from struct values (the parameter is the object; a struct cast to its own
 * type is that object), xlate as a whole struct assigned (members the translator leaves out
 * are zero), xlate <T *>(s)->m of a struct value, and translators both ways. */
#pragma D option quiet

struct point { int x; int y; };
struct polar { long r2; char quadrant; short pad; };

translator struct polar < struct point p > {
	r2 = ((struct point)p).x * p.x + p.y * p.y;
	quadrant = p.x >= 0 ? (p.y >= 0 ? 1 : 4) : (p.y >= 0 ? 2 : 3);
};

translator struct point < struct polar q > {
	x = q.r2;
	y = q.quadrant;
};

struct point pt;
struct polar pol;

BEGIN
{
	pt.x = -3;
	pt.y = 4;
	pol.pad = 99;
	pol = xlate <struct polar>(pt);
	printf("%d %d %d\n", pol.r2, pol.quadrant, pol.pad);
	printf("%d %d\n", xlate <struct polar *>(pt)->r2, xlate <struct point>(pol).y);
	this->back = xlate <struct point>(pol);
	printf("%d %d\n", this->back.x, this->back.y);
	exit(0);
}
