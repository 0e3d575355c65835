/* sizeof a union only named */

BEGIN
{
	trace(sizeof (union nowhere));
	exit(0);
}
