/* A struct-valued array indexed with more keys than it was declared with. */
struct s { int a; } r[int];

BEGIN
{
	r[1, 2].a = 1;
}
