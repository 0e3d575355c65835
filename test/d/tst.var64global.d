/* A global first assigned the int constant 0 keeps every bit of a 64-bit value stored later,
 * as DIF's 64-bit variables do in DTrace: comparisons, shifts and arithmetic see all of it.
 * Printing it records its type's 4 bytes unless cast to a 64-bit type, and a cast to int
 * cuts it, as in DTrace. */
#pragma D option quiet

BEGIN
{
	big = 0;
	big = 0x123456789;
	printf("%d %d\n", big == 0x123456789, big >> 32);
	wide = big - 0x23456789;
	printf("%d %x %x %x\n", wide == 0x100000000, big, (uint64_t)big, (int)big);
	exit(0);
}
