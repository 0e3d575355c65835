/* a bit-field has no address */
struct s { int a : 3; } v;

BEGIN
{
	trace(&v.a);
	exit(0);
}
