/* void is a parameter list by itself only */
int f(void, int);

BEGIN
{
	exit(0);
}
