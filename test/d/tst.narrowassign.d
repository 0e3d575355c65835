/* A variable declared of a narrow integer type holds that type's width, as C's assignment
 * does and illumos's D (arithmetic/tst.compnarrowassign: a constant cast at compile time): a
 * constant, a compound assignment, ++ and -- wrap at the type's 8, 16 or 32 bits, a signed
 * type sign-extends, for globals, self-> and this->. A variable whose type came from its
 * first assignment keeps 64 bits (tst.var64global.d), as last below. Expected by hand:
 * 0x1ff & 0xff = 0xff; 0xff + 2 = 0x101 -> 1; 0xffff + 0x10001 = 0x20000 -> 0;
 * int8_t 127 + 1 -> -128; int32_t 0x7fffffff * 2 = 0xfffffffe -> -2; 0 - 1 as uint16_t 65535;
 * self-> uint16_t 0x12345 -> 0x2345; this-> int16_t 0x8000 -> -32768; the undeclared
 * 0x123456789 = 1 * 2^32 + 591751049. Each value is read through a 64-bit cast, which keeps
 * the register as stored (printf of the narrow variable itself would record its width). */
#pragma D option quiet

uint8_t b;
int8_t sb;
uint16_t h;
int32_t w;
self uint16_t sh;
this int16_t th;

BEGIN
{
	b = 0x1ff;
	printf("%x ", (int64_t)b);
	b += 2;
	printf("%d ", (int64_t)b);
	h = 0xffff;
	h += 0x10001;
	printf("%d ", (int64_t)h);
	sb = 127;
	sb++;
	printf("%d ", (int64_t)sb);
	w = 0x7fffffff;
	w *= 2;
	printf("%d ", (int64_t)w);
	h = 0;
	h--;
	printf("%d\n", (int64_t)h);
	self->sh = 0x12345;
	this->th = 0x8000;
	printf("%x %d\n", (int64_t)self->sh, (int64_t)this->th);
	wide = 0;
	wide += 0x123456789;
	printf("%d %d\n", wide / 0x100000000, wide % 0x100000000);
	exit(0);
}
