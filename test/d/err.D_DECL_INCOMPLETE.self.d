/* a struct cannot contain itself (only a pointer to itself) */
struct s { int a; struct s inner; };

BEGIN
{
	
	exit(0);
}
