/* a function declared as a member has no size */
struct s { int a; int f(); };

BEGIN
{
	
	exit(0);
}
