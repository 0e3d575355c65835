/* no translator from a string */
struct out { int a; };
translator struct out < long v > { a = v; };

BEGIN
{
	trace(xlate <struct out>("x").a);
	exit(0);
}
