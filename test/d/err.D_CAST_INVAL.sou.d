/* a cast to a struct type */
struct s { int a; };

BEGIN
{
	trace((struct s)1);
	exit(0);
}
