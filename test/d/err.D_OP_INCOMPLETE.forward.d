/* -> through a pointer to a struct never defined */
struct out { int b; };

translator struct out < struct never *i > {
	b = i->a;
};

BEGIN
{
	exit(0);
}
