/* encoding=utf8 draws a distribution's bars in Unicode block elements, as libdtrace's
 * dt_print_quantline_utf8: whole columns of U+2588, then one block of the eighths left
 * (U+258F one eighth ... U+2589 seven). Worked by hand: the rows 5, 3 and 8 of a total of 16
 * are 12.5, 7.5 and 20 columns (12 whole and a half block U+258C; 7 and a half; 20 whole);
 * under aggzoom the largest row is 95% of 40 columns: 8 is 38, 5 is 23.75 (23 and six
 * eighths, U+258A), 3 is 14.25 (14 and two eighths, U+258E). */
#pragma D option quiet
#pragma D option encoding=utf8

BEGIN
{
	@ = lquantize(0, 0, 4, 1, 5);
	@ = lquantize(1, 0, 4, 1, 3);
	@ = lquantize(2, 0, 4, 1, 8);
	printa(@);
	setopt("aggzoom");
	printa(@);
	exit(0);
}
