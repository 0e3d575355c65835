/* printf's %k takes a stack, and a stack takes only %k */
BEGIN
{
	printf("%k\n", 1);
}
