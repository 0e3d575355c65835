/* nor of a built-in variable */
inline int pid = 4;

BEGIN
{
	exit(0);
}
