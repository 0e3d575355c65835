/* a member the translator does not convert */
struct out { int a; int b; };
translator struct out < long v > { a = v; };

BEGIN
{
	trace(xlate <struct out>(1).b);
	exit(0);
}
