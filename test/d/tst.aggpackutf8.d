/* aggpack under encoding=utf8: a positive bucket is one of the eight block elements U+2581
 * (lowest) to U+2588 (full), its count's sevenths of the key's total rounded (aggzoom: of the
 * largest bucket at 95 %), as libdtrace's dt_print_packed. An int key is 8 columns (plus
 * one); lquantize's outer buckets are labelled "< 0" and ">= 3" in 8 columns. */
#pragma D option quiet
#pragma D option encoding=utf8

BEGIN
{
	setopt("aggpack");
	@[(int)1] = lquantize(0, 0, 3, 1, 1);
	@[(int)1] = lquantize(1, 0, 3, 1, 7);
	@[(int)2] = lquantize(2, 0, 3, 1, 3);
	@[(int)2] = lquantize(5, 0, 3, 1, 5);
	printa(@);
	setopt("aggzoom");
	printa(@);
	exit(0);
}
