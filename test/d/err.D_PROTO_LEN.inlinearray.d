/* an inline array takes as many arguments as it has parameters */
inline int sum[int a, int b] = a + b;

BEGIN
{
	trace(sum[1]);
}
