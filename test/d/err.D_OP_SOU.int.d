/* . applied to an integer variable */
int x;

BEGIN
{
	trace(x.y);
	exit(0);
}
