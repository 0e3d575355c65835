/* a bit-field width that is not a positive constant */
struct s { int a : -3; };

BEGIN
{
	
	exit(0);
}
