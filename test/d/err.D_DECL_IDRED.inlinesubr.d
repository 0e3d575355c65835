/* an inline cannot take the name of a subroutine D has */
inline int strlen = 4;

BEGIN
{
	exit(0);
}
