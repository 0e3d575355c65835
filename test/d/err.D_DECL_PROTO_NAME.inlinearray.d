/* an inline array's parameters have names */
inline int first[int, int b] = b;

BEGIN
{
	exit(0);
}
