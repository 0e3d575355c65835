/* alloca(n): n zeroed bytes of the firing's scratch, readable and writable through a pointer
 * for the rest of the clause; past the scratch space it faults to ERROR */
#pragma D option quiet

struct pair { int a; int b; };

BEGIN
{
	this->p = (int *)alloca(3 * sizeof (int));
	printf("%d %d %d\n", this->p[0], this->p[1], this->p[2]);
	this->p[1] = 42;
	*this->p = -7;
	this->q = (struct pair *)alloca(sizeof (struct pair));
	this->q->b = this->p[0] + this->p[1];
	printf("%d %d %d\n", this->p[0], this->p[1], this->q->b);
}

BEGIN
{
	this->big = alloca(1 << 30);
	printf("not reached\n");
}

ERROR
{
	printf("fault %d\n", arg4);
	exit(0);
}
