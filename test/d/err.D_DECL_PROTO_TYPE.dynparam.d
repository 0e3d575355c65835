/* an associative array is no function parameter */
int f(string s, int a[string]);

BEGIN
{
	exit(0);
}
