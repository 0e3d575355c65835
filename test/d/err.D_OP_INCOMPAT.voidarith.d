/* a void * does no arithmetic */
void *p;

BEGIN
{
	trace((long)(p + 1));
}
