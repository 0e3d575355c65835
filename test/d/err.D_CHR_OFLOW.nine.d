/* a character constant holds 8 characters at most */
BEGIN
{
	trace('12345678\\n');
}
