/* ARGS: -x droptags */
/* A fault in an ERROR clause is not an error record and fires nothing: it is counted and
 * reported as an error in the ERROR probe enabling (DTRACEDROP_DBLERROR). */
#pragma D option quiet

BEGIN
{
	y = 0;
	x = 1 / y;
}

ERROR
{
	z = 1 / y;
}

BEGIN
{
	exit(0);
}
