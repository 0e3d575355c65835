BEGIN
{
	h = "one
	two";
	exit(0);
}
