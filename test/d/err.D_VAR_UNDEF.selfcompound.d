/* the same for a thread-local variable */
BEGIN
{
	self->n -= 1;
}
