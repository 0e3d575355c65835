/* a translator member the output struct does not have */
struct out { int a; };
translator struct out < long v > { b = v; };

BEGIN
{
	
	exit(0);
}
