/* sizeof a bit-field */
struct s { int a : 3; } v;

BEGIN
{
	trace(sizeof (v.a));
	exit(0);
}
