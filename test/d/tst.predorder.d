/* As libdtrace, a clause's statements are compiled before its predicate (x, made by x++ in
 * the body, is known in /x == 0/), unless they name something undefined, when the predicate
 * goes first (this->v, made in the predicate, is known in the body). */
#pragma D option quiet

BEGIN
/x == 0/
{
	x++;
}

BEGIN
/(this->v = 5) > 0/
{
	printf("%d %d\n", x, this->v);
	exit(0);
}
