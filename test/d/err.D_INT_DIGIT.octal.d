BEGIN
{
	x = 0129;
	exit(0);
}
