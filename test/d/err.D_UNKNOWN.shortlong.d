/* "short long" is no type libdtrace knows */
BEGIN
{
	trace((short long)1);
}
