/* and of ++ */
BEGIN
{
	s = "abc";
	s++;
}
