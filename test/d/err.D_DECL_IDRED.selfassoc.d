/* a self-> variable is declared once, as an array or as a scalar */
self int depth;
self int depth[int];

BEGIN
{
	exit(0);
}
