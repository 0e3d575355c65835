/* %Y and %T print a time in ns since 1970 (UTC) as libdtrace's pfprint_time (ctime's order)
 * and pfprint_time822 (strftime "%a, %d %b %G %T %Z": %G is the ISO week's year, so
 * 1 January 2010, a Friday, is in 2009); width and precision apply as to %s */
#pragma D option quiet

inline uint64_t NS = 1000000000;

BEGIN
{
	printf("%Y|%T\n", (uint64_t)1262304000 * NS, (uint64_t)1262304000 * NS);
	printf("%Y|%T\n", (uint64_t)951782400 * NS, (uint64_t)4102444799 * NS);
	printf("[%25Y] [%-8.4Y]\n", (uint64_t)86399 * NS, (uint64_t)0);
	exit(0);
}
