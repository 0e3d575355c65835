/* a declared self-> scalar is not used as an associative array */
self int depth;

BEGIN
{
	self->depth[1] = 1;
}
