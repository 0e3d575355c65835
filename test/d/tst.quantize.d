#pragma D option quiet

BEGIN
{
	@q = quantize(0);
	@q = quantize(1);
	@q = quantize(2);
	@q = quantize(3);
	@q = quantize(1000);
	@q = quantize(1000);
	@q = quantize(1000);
	@q = quantize(1000);
	@neg = quantize(-5);
	@neg = quantize(-8);
	@neg = quantize(3);
	exit(0);
}
