/* two parameters of one name */
int f(int a, char *a);

BEGIN
{
	exit(0);
}
