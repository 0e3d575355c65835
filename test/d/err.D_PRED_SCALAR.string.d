/* nor is a string */
BEGIN
/probename/
{
	exit(0);
}
