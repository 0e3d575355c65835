/* & of a D scalar variable, which has no address */

BEGIN
{
	x = 1; trace(&x);
	exit(0);
}
