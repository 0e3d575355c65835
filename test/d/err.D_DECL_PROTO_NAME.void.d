/* a void parameter has no name */
extern long g(void nothing);

BEGIN
{
	exit(0);
}
