/* only integers may be bit-fields */
struct s { int *p : 3; };

BEGIN
{
	
	exit(0);
}
