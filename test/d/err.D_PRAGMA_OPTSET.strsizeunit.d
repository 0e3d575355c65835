/*
 * A size option's value is a number with at most one k, m, g or t suffix: "2kb" is refused
 * with a clear error instead of being read as 2.
 */
#pragma D option strsize=2kb

BEGIN
{
	exit(0);
}
