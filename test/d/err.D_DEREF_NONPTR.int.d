/* * applied to an integer */

BEGIN
{
	x = 1; trace(*x);
	exit(0);
}
