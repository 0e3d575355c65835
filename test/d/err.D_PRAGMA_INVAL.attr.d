/* attributes are stability/stability/class names */
#pragma D attributes Stable/Solid/Common total
int total;

BEGIN
{
	exit(0);
}
