/* copyin needs an address and a size */

BEGIN
{
	trace(copyin(arg0));
	exit(0);
}
