/* ARGS: -x bufsize=0 */
/* With aggregations, a principal buffer set to 0 is raised to what one record needs. */
#pragma D option quiet

BEGIN
{
	@ = count();
	exit(0);
}
