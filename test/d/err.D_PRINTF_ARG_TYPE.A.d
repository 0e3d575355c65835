/*
 * printf's %A (a user address by name) takes an integer, not a string.
 */
BEGIN
{
	printf("%A\n", execname);
}
