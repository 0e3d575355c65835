/* Quantize-family aggregations sort by the sum of count times bucket value (negative
 * increments too), and on a tie by the count in the zero bucket; n++ on a new variable makes
 * an int64_t, so its keys print 16 wide. */
#pragma D option quiet

BEGIN
{
	n++;
	@q[n] = quantize(0, -3);
	n++;
	@q[n] = quantize(0, -5);
	n++;
	@q[n] = quantize(4, -1);
	@l["hi"] = lquantize(20, 0, 10, 5);
	@l["lo"] = lquantize(-1, 0, 10, 5, 3);
	@l["mid"] = lquantize(10, 0, 10, 5, -1);
	exit(0);
}
