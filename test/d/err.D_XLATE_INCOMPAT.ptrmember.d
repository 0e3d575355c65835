/* a pointer member is not given an integer: checked where the translator stands */
struct in { int a; };
struct out { int *p; };

translator struct out < struct in *i > {
	p = i->a;
};

BEGIN
{
	exit(0);
}
