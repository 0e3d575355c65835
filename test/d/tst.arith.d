#pragma D option quiet

BEGIN
{
	printf("%d %d %d\n", 2 + 3 * 4, (2 + 3) * 4, 20 - 5 - 3);
	printf("%d %d %d %d\n", 17 / 5, 17 % 5, -17 / 5, -17 % 5);
	printf("%d %d %d\n", 1 << 10, 1024 >> 3, -16 >> 2);
	printf("%d %d %d %d\n", 6 & 3, 6 | 3, 6 ^ 3, ~0);
	printf("%d %d %d %d %d %d\n", 1 < 2, 2 < 1, 2 <= 2, 3 >= 4, 5 == 5, 5 != 5);
	printf("%d %d %d %d\n", 1 && 0, 1 || 0, 1 ^^ 1, 1 ^^ 0);
	printf("%d %d\n", !0, !7);
	printf("%d %d\n", 1 ? 10 : 20, 0 ? 10 : 20);
	printf("%d %d %d\n", -(3), +4, - -5);
	printf("%d %u\n", 2147483647 + 1, 4294967295U + 1);
	printf("%d\n", 1 + 2 == 3 && 4 > 3 || 0);
	printf("%d %d\n", (char)300, (unsigned char)300);
	printf("%d %d\n", sizeof (int), sizeof (long));
	printf("%d\n", (1, 2));
	exit(0);
}
