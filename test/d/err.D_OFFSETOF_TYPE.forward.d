/* offsetof in a struct only declared */
struct later;

BEGIN
{
	trace(offsetof(struct later, x));
}
