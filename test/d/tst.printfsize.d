/* %i reads a value at its own size, signed, as libdtrace's pfprint_sint; %d too for a
 * signed value and as %u for an unsigned one (pfcheck_dint); %u zero-extends;
 * a precision of 0 (or a dynamic one <= 0) is no precision */
#pragma D option quiet

uint8_t b;
uint16_t h;
int16_t sh;
uint32_t w;

BEGIN
{
	b = 200; h = 0xfffe; sh = -3; w = 0xfffffffd;
	printf("%d %i %u\n", b, b, b);
	printf("%d %i %u\n", h, h, h);
	printf("%d %i %u\n", sh, sh, sh);
	printf("%d %i %u %x\n", w, w, w, w);
	printf("[%.0s] [%.2s] [%.*s] [%.*s]\n", "abc", "abc", 0, "abc", -1, "abc");
	printf("[%.0d] [%5.0d] [%*d]\n", 0, 7, -4, 3);
	exit(0);
}
