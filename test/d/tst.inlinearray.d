/* Inline arrays: inline type name[type p, ...] = expr; name[args] is expr with each p
 * standing for its argument, compiled where it is used; struct inlines of a translation. */
#pragma D option quiet

struct box { long area; };

translator struct box < int side > {
	area = side * side;
};

inline int sum[int a, int b] = a + b;
inline string pick[int k, string yes, string no] = k ? yes : no;
inline long scaled[int v] = sum[v, v] * 1000000000L;
inline struct box unit = xlate <struct box>(1);

BEGIN
{
	n = 4;
	printf("%d %s %s %d\n", sum[n, 10], pick[n > 3, "big", "small"], pick[0, "a", "b"],
	    scaled[n]);
	printf("%d %d\n", unit.area, xlate <struct box>(sum[1, 2]).area);
	exit(0);
}
