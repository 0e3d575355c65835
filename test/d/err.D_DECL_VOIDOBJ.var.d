/* void is no type for a variable */
void v;

BEGIN
{
	exit(0);
}
