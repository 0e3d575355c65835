/* sizeof a struct that is declared but not defined */
struct fwd;

BEGIN
{
	trace(sizeof (struct fwd));
	exit(0);
}
