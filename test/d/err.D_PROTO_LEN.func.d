/*
 * func( ) takes one address: none is a prototype mismatch.
 */
BEGIN
{
	trace(func());
}
