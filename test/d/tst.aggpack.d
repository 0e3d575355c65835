/* aggpack prints a quantize( ) or lquantize( ) aggregation a line per key, as libdtrace's
 * dt_print_quantize_packed: every key over the buckets the keys share (quantize: the lowest to
 * the highest non-zero bucket of any key, one more each side; lquantize: all), one character a
 * bucket ("__xxxxXX" at a positive count * 7 / the total, rounded, "vvvvVV" at a
 * negative one's * 5, blank for none), the keys 16 columns for a string and 5 for a short
 * (plus one each), "min"/"max" as wide as their bucket values (at least 4; lquantize 7 and 8),
 * then the sum of the buckets. A short key prints as dt_print_datum reads it, unsigned (-1 is
 * 65535). aggzoom draws against the largest bucket at 95 %. A count( )
 * is not packed. Set with setopt( ), which the board's dtrace takes too. */
#pragma D option quiet
#pragma D option encoding=ascii

BEGIN
{
	setopt("aggpack");
	@q["a", (short)3] = quantize(1, 1);
	@q["a", (short)3] = quantize(8, 7);
	@q["bb", (short)-1] = quantize(3, 4);
	@q["bb", (short)-1] = quantize(-2, -1);
	@l = lquantize(3, 0, 5, 1, 4);
	@l = lquantize(7, 0, 5, 1, -2);
	@l = lquantize(-1, 0, 5, 1, 1);
	@c = count();
	printa(@q);
	setopt("aggzoom");
	printa(@l);
	printa(@c);
	exit(0);
}
