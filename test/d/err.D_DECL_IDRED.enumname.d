enum colors { RED, GREEN, BLUE };
enum shades { WHITE, RED };

BEGIN
{
	exit(0);
}
