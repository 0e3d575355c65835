/* <sys/types.h> names DTrace programs use (uchar_t, ushort_t, uint_t, ulong_t,
 * u_longlong_t, hrtime_t...) and void * in casts; %p prints bare hex as libdtrace's "x"
 * output format does (0x only with #) */
#pragma D option quiet

hrtime_t t;

BEGIN
{
	t = -1;
	printf("%u %u %u %u %u\n", (uchar_t)-1, (ushort_t)-1, (uint_t)-1, (ulong_t)-1,
	    (u_longlong_t)1);
	printf("%d %d %d %p %#p\n", sizeof (uid_t), sizeof (hrtime_t), t < 0, (void *)4096,
	    (void *)4096);
	exit(0);
}
