/* offsetof of a pointer to a struct */
struct s { int a; };

BEGIN
{
	trace(offsetof(struct s *, a));
	exit(0);
}
