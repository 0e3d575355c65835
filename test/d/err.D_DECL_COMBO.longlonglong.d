/* long may appear twice at most */
BEGIN
{
	trace(sizeof (long long long));
}
