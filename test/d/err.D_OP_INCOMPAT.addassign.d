/* += of a string to an integer */
BEGIN
{
	n = 1;
	n += "abc";
}
