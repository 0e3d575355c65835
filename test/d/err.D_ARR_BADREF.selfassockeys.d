/* a self-> array's thread takes one of the ten keys a tuple has: nine are left */
self int many[int, int, int, int, int, int, int, int, int, int];

BEGIN
{
	exit(0);
}
