/* two translators for the same pair of types */
struct out { int a; };
translator struct out < long v > { a = v; };
translator struct out < long w > { a = w + 1; };

BEGIN
{
	
	exit(0);
}
