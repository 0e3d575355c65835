/* a string expression for an integer member */
struct out { int a; };
translator struct out < long v > { a = "text"; };

BEGIN
{
	trace(xlate <struct out>(1).a);
	exit(0);
}
