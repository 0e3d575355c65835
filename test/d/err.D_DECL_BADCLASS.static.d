/* static, auto and register mean nothing in D */
static int counter;

BEGIN
{
	exit(0);
}
