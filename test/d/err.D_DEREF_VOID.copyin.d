/* copyin gives a void *: it must be cast before it is dereferenced */

BEGIN
{
	trace(*copyin(arg0, 4));
	exit(0);
}
