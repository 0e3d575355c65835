/* and of ! */
BEGIN
{
	x = !execname;
}
