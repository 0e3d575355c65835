/* keys of two struct types are not interchangeable, even of one layout */
struct one { int v; };
struct two { int v; };
struct one x;
struct two y;

BEGIN
{
	k[x] = 1;
	k[y] = 2;
}
