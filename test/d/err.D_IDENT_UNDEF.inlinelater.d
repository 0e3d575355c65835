/* an inline reads only what is declared before it */
inline int twice = later * 2;
int later;

BEGIN
{
	exit(0);
}
