/* as in DTrace, arithmetic keeps its 64-bit result: an int variable assigned an int
 * expression holds all of it (printing cuts it to the type's size, comparisons see it);
 * a variable of a narrower or differently signed type, or a cast, cuts it */
#pragma D option quiet

uint16_t narrow;

BEGIN
{
	i = 2147483647;
	j = i + 1;
	narrow = 0x12345678;
	printf("%d %d %d\n", j, j > 0, (int)j > 0);
	k = i * 4 / 4;
	printf("%d %x\n", k, narrow);
	exit(0);
}
