/*
 * A rate option takes a time unit (ns us ms s m h d, or their long forms) or hz; anything
 * else is refused with a clear error.
 */
#pragma D option switchrate=10fortnights

BEGIN
{
	exit(0);
}
