/* an array member of 0 elements */
struct s { int a[0]; };

BEGIN
{
	
	exit(0);
}
