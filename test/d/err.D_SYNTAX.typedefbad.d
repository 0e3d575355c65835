typedef no_such_type my_int;

BEGIN
{
	exit(0);
}
