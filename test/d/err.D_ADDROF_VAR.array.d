/* nor has a declared array (its elements have) */
int a[4];

BEGIN
{
	trace((long)&a);
}
