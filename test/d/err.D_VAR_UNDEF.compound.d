/* x op= e reads x first: on a variable never assigned it is D_VAR_UNDEF (x++ may create one) */
BEGIN
{
	total *= 2;
}
