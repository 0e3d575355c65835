/* a predicate is of scalar type: a struct is not */
struct pair { int a; int b; } pr;

BEGIN
/pr/
{
	exit(0);
}
