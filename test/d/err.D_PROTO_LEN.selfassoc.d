/* a declared self-> associative array takes its declared number of keys */
self int depth[int];

BEGIN
{
	self->depth[1, 2] = 1;
}
