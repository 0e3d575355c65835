/*
 * Bad addresses in D memory accesses are faults reported to ERROR (the clause's record is
 * dropped), never crashes: a declared array indexed out of its bounds by a variable, a
 * load and a store through wild pointers; a store through a char pointer into an int array
 * stays inside it and is seen by the int.
 */
#pragma D option quiet

int a[4];
int errs;
struct s { int v; } x;

BEGIN { i = 4; trace(a[i]); }
BEGIN { i = -1; a[i] = 1; }
BEGIN { this->p = (int *)64; trace(*this->p); }
BEGIN { this->q = (struct s *)96; this->q->v = 5; }
BEGIN { this->c = (char *)&a[0]; this->c[1] = 9; printf("%d\n", a[0]); }
BEGIN { printf("%d errors\n", errs); exit(0); }

ERROR
{
	errs++;
	printf("fault %d\n", arg4);
}
