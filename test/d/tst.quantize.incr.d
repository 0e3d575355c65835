/*
 * The optional increment of quantize( ), lquantize( ) and llquantize( ): the bucket grows by
 * the increment (an expression, evaluated each time) instead of 1. A negative increment
 * makes a negative count, drawn left of a centre line when the table also holds positives.
 */
#pragma D option quiet

BEGIN
{
	i = 2;
	@q = quantize(3, 5);
	@q = quantize(3, i);
	@q = quantize(100, i + 1);
	@l = lquantize(4, 0, 10, 2, 4);
	@l = lquantize(4, 0, 10, 2, -1);
	@ll = llquantize(30, 10, 0, 2, 10, 6);
	@neg = quantize(1, -3);
	@neg = quantize(8, 1);
	@allneg = lquantize(-7, -10, 10, 5, -2);
	@allneg = lquantize(12, -10, 10, 5, -6);
	exit(0);
}
