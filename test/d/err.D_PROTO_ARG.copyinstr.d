/* copyinstr takes an address, not a string */

BEGIN
{
	trace(copyinstr("abc"));
	exit(0);
}
