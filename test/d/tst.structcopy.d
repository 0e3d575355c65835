/*
 * Assigning a struct or union copies its bytes: into a this-> or global variable that the
 * assignment declares (as DTrace does), into a member of the same type, and from memory
 * copyin-like pointers point to; the copy is independent of its source.
 */
#pragma D option quiet

struct in { int pos; char c; };
struct mid { struct in i; int n; };
struct top { struct mid m; long l; short s; } t;

BEGIN
{
	t.m.i.pos = 5;
	t.m.i.c = 'e';
	t.m.n = 4;
	t.l = 1234567890123;
	t.s = -3;
	this->copy = t;
	t.m.n = 40;
	saved = t.m;
	t.m.i.pos = 50;
	this->p = (struct top *)&t.m; /* a variable has no address in D: its first member has */
	this->mm = this->p->m;
	printf("%d %c %d %d %d\n", this->copy.m.i.pos, this->copy.m.i.c, this->copy.m.n,
	    this->copy.l, this->copy.s);
	printf("%d %d %d %d\n", saved.i.pos, saved.n, this->mm.i.pos, sizeof (this->copy));
	t.m.i = saved.i;
	printf("%d\n", t.m.i.pos);
	exit(0);
}
