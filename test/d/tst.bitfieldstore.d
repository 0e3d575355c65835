/* Bit-fields are written as C does: the value's low bits, the neighbours kept. */
#pragma D option quiet

struct flags {
	unsigned int lo : 3;
	int mid : 5;
	unsigned char top : 7;
	long wide : 40;
} f;

BEGIN
{
	f.lo = 13;
	f.mid = -3;
	f.top = 255;
	f.wide = 0x123456789a;
	f.lo++;
	printf("%d %d %d %x\n", f.lo, f.mid, f.top, f.wide);
	f.mid = 16;
	printf("%d %d %d\n", f.lo, f.mid, f.top);
	exit(0);
}
