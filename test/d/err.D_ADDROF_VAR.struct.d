/* a struct variable has no address in D (its members have) */
struct pair { int a; int b; } pr;

BEGIN
{
	trace((long)&pr);
}
