/*
 * Struct, union and declared-array variables in D's own memory (global and this->): member
 * access with . and ->, nested members, arrays in structs, bit-fields (read), & and *,
 * pointer arithmetic in elements, pointer comparisons, casts between pointer types,
 * sizeof of variables, stringof of a char array.
 */
#pragma D option quiet

struct point { int x; int y; };
struct req {
	int op;
	short len;
	unsigned char flags : 3;
	long vals[4];
	struct point at;
	struct req *next;
	char name[8];
};
union word { long l; int i[2]; unsigned char b[8]; };

struct req r;
union word w;
int a[5];
char buf[16];

BEGIN
{
	r.op = 7;
	r.len = -2;
	r.vals[2] = 1234567890123;
	r.vals[3] = r.vals[2] + 1;
	r.at.y = 40;
	r.at.x = r.at.y / 2;
	a[0] = 10;
	a[4] = 14;
	a[1]++;
	a[1] += 5;
	this->p = (struct req *)&r.op; /* D gives a variable no address: a member has one */
	this->p->op += 1;
	this->q = &a[0];
	printf("%d %d %d %d %d %d\n", r.op, r.len, r.vals[2], this->p->vals[3], r.at.x,
	    this->p->at.y);
	printf("%d %d %d %d %d\n", a[0], a[1], a[4], *(this->q + 4), this->q[4]);
	printf("%d %d %d %d\n", &a[4] - &a[0], sizeof (r), sizeof (a), sizeof (r.at));
	printf("%d %d %d\n", this->p->next == NULL, r.flags, &a[1] > &a[0]);
	w.l = 0x0102030405060708;
	printf("%x %x %x\n", w.i[0], w.i[1], w.b[7]);
	this->c = (char *)&w.l;
	printf("%d %d\n", *this->c, this->c[1]);
	buf[0] = 'h';
	buf[1] = 'i';
	r.name[0] = 'o';
	r.name[1] = 'k';
	printf("%s %s\n", stringof(buf), stringof(r.name));
}

struct point pt;

BEGIN
{
	this->pp = (struct point *)&pt.x;
	this->pp->x = 3;
	this->pp->y = this->pp->x * 3;
	pt.x++;
	printf("%d %d\n", pt.x, pt.y);
	exit(0);
}
