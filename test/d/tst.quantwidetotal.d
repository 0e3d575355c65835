/* A distribution whose rows' magnitudes add up past 64 bits: libdtrace sums them in a long
 * double (dt_quantize_total), so a row of INT64_MIN beside one of INT64_MAX is half the total
 * each (10 of the 20 columns either side of the centre line) and a row of 1000 is nothing.
 * The expected bars are that formula worked by hand: depth = (|v| * 20) / total + 0.5,
 * total = 2^63 + (2^63 - 1) + 1000. The bucket of 4 wraps to INT64_MIN, as sum( ) wraps.
 * The lquantize( ) rows are both INT64_MIN: all negative, 2^64 in all (a 64-bit total wraps to
 * 0 and draws nothing), so each is 20 of 40 columns, drawn left of the bar. */
#pragma D option quiet

BEGIN
{
	@q["wide"] = quantize(4, 0x7fffffffffffffff);
	@q["wide"] = quantize(5, 1);
	@q["wide"] = quantize(8, 0x7fffffffffffffff);
	@q["wide"] = quantize(64, 1000);
	@l["wide"] = lquantize(1, 0, 3, 1, 0x7fffffffffffffff);
	@l["wide"] = lquantize(1, 0, 3, 1, 1);
	@l["wide"] = lquantize(2, 0, 3, 1, 0x7fffffffffffffff);
	@l["wide"] = lquantize(2, 0, 3, 1, 1);
	exit(0);
}
