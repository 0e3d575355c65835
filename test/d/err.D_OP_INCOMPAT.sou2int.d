/* a struct assigned to an integer variable */
struct s { int a; } v;

BEGIN
{
	x = 1; x = v;
	exit(0);
}
