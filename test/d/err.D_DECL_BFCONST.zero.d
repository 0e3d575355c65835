/* a named bit-field of width 0 */
struct s { int a : 0; };

BEGIN
{
	
	exit(0);
}
