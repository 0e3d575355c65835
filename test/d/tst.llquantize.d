#pragma D option quiet

BEGIN
{
	@ll = llquantize(0, 10, 0, 2, 10);
	@ll = llquantize(5, 10, 0, 2, 10);
	@ll = llquantize(15, 10, 0, 2, 10);
	@ll = llquantize(250, 10, 0, 2, 10);
	@ll = llquantize(5000, 10, 0, 2, 10);
	exit(0);
}
