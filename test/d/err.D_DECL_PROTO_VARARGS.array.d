/* an associative array has a fixed number of keys */
int a[int, ...];

BEGIN
{
	exit(0);
}
