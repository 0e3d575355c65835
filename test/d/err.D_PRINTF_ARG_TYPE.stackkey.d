/* printa: a stack key printed with an integer conversion */
BEGIN
{
	@[stack()] = count();
	printa("%d %@d\n", @);
}
