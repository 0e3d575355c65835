/* strtoll(s, base): digits below the base (letters from 10 up, either case), an optional
 * 0x in base 16, a sign, leading blanks; it stops at the first other character */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d\n", strtoll("ff", 16), strtoll("0XfF", 16), strtoll("0x", 16));
	printf("%d %d %d\n", strtoll("  -777", 8), strtoll("1019", 2), strtoll("zz", 36));
	printf("%d %d\n", strtoll("+12abc", 10), strtoll("xyz", 35));
}

BEGIN
{
	b = 1;
	printf("%d\n", strtoll("1", b));
}

ERROR
{
	printf("fault %d\n", arg4);
	exit(0);
}
