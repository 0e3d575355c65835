/* a declared array of no elements */
int a[0];

BEGIN
{
	
	exit(0);
}
