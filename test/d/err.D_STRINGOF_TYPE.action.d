/* an action has no value: stringof of one */
BEGIN
{
	x = stringof(exit(0));
}
