/* an enumerator is an int */
enum big {
	SMALL = 1,
	HUGE = 0x80000000
};

BEGIN
{
	exit(0);
}
