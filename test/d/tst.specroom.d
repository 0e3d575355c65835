/* ARGS: -x specsize=16 */
/* A speculative clause whose record does not fit what is left of its speculation's buffer
 * is dropped from the speculate( ) on, its variable stores too (as DTrace's kernel), and
 * counted; a clause speculating on id 0 (no speculation) is dropped without a count. */
#pragma D option quiet

BEGIN
{
	s = speculation();
	t = speculation();
}

BEGIN
{
	speculate(s);
	printf("%s\n", "does not fit in 16 bytes");
	after_full = 1;
}

BEGIN
{
	speculate(t);
	after_zero = 1;
}

BEGIN
{
	commit(s);
}

BEGIN
{
	printf("%d %d %d\n", t, after_full, after_zero);
	exit(0);
}
