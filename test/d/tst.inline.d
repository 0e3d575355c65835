/* ARGS: -q */
/* inline names: constants, expressions of variables (evaluated where used), the declared
 * type's conversion, NULL and character constants (int, as in C). As in libdtrace, an inline
 * is checked where it stands: the variables it reads are declared before it. */
int x;
inline int limit = 100 + 23;
inline int twice = x * 2;
inline unsigned char low = 0x1ff;

BEGIN
{
	x = 21;
	printf("limit=%d twice=%d low=%d NULL=%d sizeof('c')=%d sizeof(NULL)=%d\n",
	    limit, twice, low, NULL, sizeof ('c'), sizeof (NULL));
	x = 50;
	printf("twice now %d\n", twice);
	exit(0);
}
