/* ARGS: -q -x bufsize=7 */
/* A buffer the program needs set below 8 bytes does not load (ENOSPC, as DTrace's kernel);
 * an aggregating program's principal buffer is first raised to one record. */
BEGIN
{
	exit(0);
}
