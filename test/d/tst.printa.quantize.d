#pragma D option quiet

BEGIN
{
	@q["small"] = quantize(1);
	@q["small"] = quantize(2);
	@q["big"] = quantize(1024);
	printa("key %s:%@d\n", @q);
	exit(0);
}
