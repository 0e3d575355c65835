/* Conversions with a size prefix take arguments of their own encoding (libdtrace's printf
 * dictionary): %ld long, %lu unsigned long (timestamp is a uint64_t), %hd short,
 * %hu unsigned short, %lc int; %lx, %llx and %hx take either sign of their size. */
#pragma D option quiet

BEGIN
{
	printf("[%ld] [%lld] [%lu] [%llu]\n", -7L, (long long)-8, (unsigned long)9,
	    timestamp > 0 ? 1UL : 0UL);
	printf("[%hd] [%hu] [%lc] [%hx] [%lx] [%llx]\n", (short)-3, (ushort_t)65535, 'A',
	    (short)-1, -1L, timestamp * 0);
	exit(0);
}
