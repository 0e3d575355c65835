/* Pointer variables: assigned from arrays' elements and from other pointers, then
 * subscripted (p[i] is read as a subscript once p is a pointer variable), stepped, compared;
 * &a[N] one past the end is an address as in C. */
#pragma D option quiet

int a[4];
int *p1;

BEGIN
{
	a[0] = 10;
	a[1] = 20;
	a[2] = 30;
	a[3] = 40;
	p1 = &a[0];
	p2 = p1;
	p2[1] = 21;
	p2[3] += 1;
	end = &a[4];
	this->p = &a[2];
	this->p[0]++;
	printf("%d %d %d %d\n", a[0], a[1], a[2], a[3]);
	printf("%d %d %d\n", p1[1], *(p2 + 3), end - p1);
	printf("%d %d\n", p2 == p1, &a[3] < end);
	exit(0);
}
