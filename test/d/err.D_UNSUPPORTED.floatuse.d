/* a floating-point value is out of this D subset */
double d;

BEGIN
{
	trace(d);
}
