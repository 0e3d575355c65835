/*
 * sizeof of types, of expressions and of string constants (their own bytes, as libdtrace
 * counts them); the result is an unsigned constant usable in constant expressions.
 */
#pragma D option quiet

enum { N = sizeof (long) * 2 };
struct s {
	char buf[sizeof (int) + 1];
	int v : sizeof (short) * 4;
};

BEGIN
{
	x = 1;
	printf("%d %d %d %d\n", sizeof (char), sizeof (short), sizeof (int), sizeof (long long));
	printf("%d %d %d\n", sizeof x, sizeof (x), sizeof ("hello"));
	printf("%d %d\n", N, sizeof (struct s));
	printf("%d\n", sizeof (int) - 5 > 0);
	printf("%d %d %d %d\n", sizeof (float), sizeof (double), sizeof (long double),
	    sizeof (struct { char c; double d; }));
	exit(0);
}
