/* a floating-point bit-field */
struct s { double d : 3; };

BEGIN
{
	
	exit(0);
}
