/* A string member of a struct-valued array's element assigned an integer. */
struct s { string name; } r[int];

BEGIN
{
	r[1].name = 5;
}
