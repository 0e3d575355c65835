/* a translator member expression naming no member of the input, reported unused */
struct in { int a; };
struct out { int b; };

translator struct out < struct in *i > {
	b = i->nosuch;
};

BEGIN
{
	exit(0);
}
