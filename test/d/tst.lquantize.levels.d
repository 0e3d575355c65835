/*
 * lquantize( ) takes up to 65535 levels (a 16-bit quantity, as libdtrace checks): what the
 * compiler accepts the kernel's verifier must accept too (lquantize(1, 0, 20480, 1) must
 * not compile into an object the verifier refuses).
 */
#pragma D option quiet

BEGIN
{
	@a = lquantize(1, 0, 20480, 1);
	@b = lquantize(65534, 0, 65535, 1);
	exit(0);
}
