/* no attributes on void */
unsigned void *p;

BEGIN
{
	exit(0);
}
