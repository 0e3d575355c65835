/* a bit-field has no byte offset */
struct s { int a; int b : 4; };

BEGIN
{
	trace(offsetof(struct s, b));
	exit(0);
}
