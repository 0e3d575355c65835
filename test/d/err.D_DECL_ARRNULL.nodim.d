/* a declared array needs a dimension */
int a[];

BEGIN
{
	exit(0);
}
