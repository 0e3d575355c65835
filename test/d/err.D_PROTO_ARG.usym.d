/*
 * usym( ) takes an address, not a string.
 */
BEGIN
{
	trace(usym("main"));
}
