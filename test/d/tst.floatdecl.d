/* float, double and long double variables may be declared (through typedefs too); they
 * take their size in D memory; using their values is left out (err.D_UNSUPPORTED.floatuse). */
#pragma D option quiet

typedef double real_t;
float f;
real_t r;
long double ld[2];

BEGIN
{
	printf("%d %d %d\n", sizeof (f), sizeof (r), sizeof (ld));
	exit(0);
}
