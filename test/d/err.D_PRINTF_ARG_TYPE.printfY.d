/* %Y takes a 64-bit integer */
BEGIN
{
	printf("%Y\n", (int)5);
}
