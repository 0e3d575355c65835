/* system( ) is destructive: without -x destructive the program is refused when enabled */
BEGIN
{
	system("echo no");
}
