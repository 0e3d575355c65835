/* but not one only a later clause creates */
BEGIN
/y == 0/
{
	exit(0);
}

BEGIN
{
	y = 1;
}
