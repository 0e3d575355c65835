/*
 * lltostr(v, base) as DTrace's kernel makes it: bases 2 to 36; in any base but 10 the value
 * is unsigned; base 16 puts "0x" before the digits and base 8 a "0"; zero is "0" ("0x0" in
 * base 16). A base out of range is an illegal operation reported to ERROR.
 */
#pragma D option quiet

BEGIN
{
	printf("%s\n", lltostr(255, 16));
	printf("%s\n", lltostr(0, 16));
	printf("%s\n", lltostr(0, 8));
	printf("%s\n", lltostr(8, 8));
	printf("%s\n", lltostr(5, 2));
	printf("%s\n", lltostr(0, 2));
	printf("%s\n", lltostr(-5, 10));
	printf("%s\n", lltostr(-5));
}

BEGIN
{
	printf("%s\n", lltostr(-1, 16));
	printf("%s\n", lltostr(-1, 2));
	printf("%s\n", lltostr(71, 36));
	printf("%s\n", lltostr(-9223372036854775807 - 1, 10));
}

BEGIN
{
	b = 37;
	printf("%s\n", lltostr(1, b));
}

ERROR
{
	printf("error %d\n", arg4);
	exit(0);
}
