/* a constant index outside a declared array */
int a[5];

BEGIN
{
	a[5] = 1;
	exit(0);
}
