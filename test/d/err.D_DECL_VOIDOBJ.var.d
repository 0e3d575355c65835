/* a variable of type void */
void nothing;

BEGIN
{
	exit(0);
}
