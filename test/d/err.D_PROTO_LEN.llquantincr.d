/* llquantize( ) takes at most six arguments: factor, low, high, steps, then the increment. */
BEGIN
{
	@q = llquantize(1, 10, 0, 2, 10, 1, 1);
}
