/* aggzoom scales a distribution's bars to its largest row (drawn at 95% of the width, 38 of
 * 40 columns; an exact half rounds down, as libdtrace's double 0.95 makes it: 9.5 is 9)
 * instead of the rows' total; setopt( ) turns it on for later printa( ). */
#pragma D option quiet

BEGIN
{
	@ = lquantize(1, 0, 4, 1, 10);
	@ = lquantize(2, 0, 4, 1, 20);
	@ = lquantize(3, 0, 4, 1, 40);
	printa(@);
	setopt("aggzoom");
	printa(@);
	exit(0);
}
