/* op= on a variable assigned (or declared) before, in this clause or an earlier one */
#pragma D option quiet
int d;

BEGIN
{
	x = 5;
	self->y = 2;
}

BEGIN
{
	x += 3;
	self->y *= 7;
	d -= 2;
	printf("%d %d %d\n", x, self->y, d);
	exit(0);
}
