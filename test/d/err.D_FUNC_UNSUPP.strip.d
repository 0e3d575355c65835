/*
 * strip( ) is a DTrace subroutine this engine does not implement (no pointer authentication
 * here): the error says so and why, instead of calling it "not a subroutine that returns a
 * value".
 */
BEGIN
{
	trace(strip(arg0, 0));
}
