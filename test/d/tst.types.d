/* values keep their types through variables, arrays and records */
#pragma D option quiet

BEGIN
{
	u = (unsigned int)-1;
	l = 0xffffffffffffffff;
	c = (char)'A';
	s = (short)-2;
	ul = (uint64_t)1 << 63;
	printf("%d %u %d %d %u %x\n", u, u, l, c, ul, ul);
	printf("%c%c %s %p\n", c, c + 1, lltostr(s * 1000), 4096);
	a[c] = s;
	printf("%d\n", a['A']);
	printf("%d %d %d\n", 7 / -2, 7 % -2, (-7) >> 1);
	printf("%u %d\n", u + 1, u > 0);
	exit(0);
}
