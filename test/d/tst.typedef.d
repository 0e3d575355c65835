/* ARGS: -q */
/* typedefs of integer types, chained, in declarations, casts and sizeof. */
typedef unsigned char byte_t;
typedef byte_t octet;
typedef long long wide_t;
octet o;

BEGIN
{
	o = 300;
	printf("o = %d, (byte_t)-1 = %d, sizeof (octet) = %d, sizeof (wide_t) = %d\n",
	    o, (byte_t)-1, sizeof (octet), sizeof (wide_t));
	exit(0);
}
