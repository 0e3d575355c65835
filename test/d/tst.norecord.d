/* A clause whose statements record nothing (assignments only) has no record: no probe line,
 * no buffer space (DTrace's kernel gives it size 0); an empty clause keeps its probe line. */

BEGIN
{
	x = 1;
}

BEGIN
{
}

BEGIN
{
	exit(0);
}
