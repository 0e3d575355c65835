/* of their types */
inline int twice[int a] = a * 2;

BEGIN
{
	trace(twice["x"]);
}
