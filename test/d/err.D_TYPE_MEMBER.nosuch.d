/* a member the struct does not have */
struct s { int a; } v;

BEGIN
{
	trace(v.b);
	exit(0);
}
