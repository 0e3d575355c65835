/* a declaration that declares nothing */
unsigned long;

BEGIN
{
	exit(0);
}
