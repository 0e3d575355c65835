/* a declared self-> associative array's keys are of its declared types (the thread is no key
 * of the user's: this is argument #1) */
self int depth[int];

BEGIN
{
	self->depth["a"] = 1;
}
