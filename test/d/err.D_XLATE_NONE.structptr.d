/* a struct value does not match a translator from a pointer to it */
struct in { int a; };
struct out { int b; };

translator struct out < struct in *i > {
	b = i->a;
};

struct in v;

BEGIN
{
	trace(xlate <struct out>(v).b);
}
