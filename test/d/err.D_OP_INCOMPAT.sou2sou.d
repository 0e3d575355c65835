/* a struct assigned to a member of another struct type */
struct s { int a; } v;
struct t { struct s in; int b; } w2;
struct u { int a; } z;

BEGIN
{
	w2.in = z;
	exit(0);
}
