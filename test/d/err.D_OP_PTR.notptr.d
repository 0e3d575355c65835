/* -> applied to a struct, not a pointer to one */
struct s { int a; } v;

BEGIN
{
	trace(v->a);
	exit(0);
}
