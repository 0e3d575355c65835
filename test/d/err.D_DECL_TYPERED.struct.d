/* a struct tag defined twice */
struct s { int a; };
struct s { int b; };

BEGIN
{
	
	exit(0);
}
