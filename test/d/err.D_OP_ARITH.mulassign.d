/* *= on a string */
BEGIN
{
	s = "abc";
	s *= 2;
}
