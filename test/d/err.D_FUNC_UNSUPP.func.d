/*
 * func( ) is a DTrace subroutine this engine does not implement yet: the error says so.
 */
BEGIN
{
	trace(func(arg0));
}
