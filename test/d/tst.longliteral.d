/* a string literal longer than strsize is accepted (as by DTrace); its value, like any
 * string's, holds strsize - 1 characters */
#pragma D option quiet
#pragma D option strsize=8

BEGIN
{
	s = "longer than eight";
	printf("[%s] [%s] %d\n", s, toupper("abcdefghijkl"), strlen("abcdefghijkl"));
	exit(0);
}
