typedef int my_int;
typedef char my_int;

BEGIN
{
	exit(0);
}
