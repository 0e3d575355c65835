/* an array is not assigned whole */
int a[2], b[2];

BEGIN
{
	a = b;
}
