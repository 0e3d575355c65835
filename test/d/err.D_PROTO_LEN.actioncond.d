/* an action in an expression still gets its prototype checked first */
BEGIN
{
	x = 1 ? trace(1, 2) : trace(3);
}
