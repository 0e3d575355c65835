/* a negative constant index */
int a[5];

BEGIN
{
	trace(a[-1]);
	exit(0);
}
