/* a call of something that is not a name: tick - 1( ) */
BEGIN
{
	x = tick-1();
}
