enum colors { RED, GREEN, GREEN = 2 };

BEGIN
{
	exit(0);
}
