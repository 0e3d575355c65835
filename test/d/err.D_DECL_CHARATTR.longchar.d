/* long and short do not go with char */
BEGIN
{
	trace((long char)65);
}
