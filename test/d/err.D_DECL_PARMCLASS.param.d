/* a parameter takes no storage class but register */
int f(int a, extern int b);

BEGIN
{
	exit(0);
}
