/* a declared self-> associative array is not used as a scalar */
self int depth[int];

BEGIN
{
	self->depth = 1;
}
