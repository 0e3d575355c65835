/*
 * ufunc( ) is a DTrace subroutine this engine does not implement yet: the error says so and
 * why, instead of calling it "not a subroutine that returns a value".
 */
BEGIN
{
	@[ufunc(arg0)] = count();
}
