/* ARGS: -q -x strsize=2048 */
/*
 * A firing's work is bounded: index() of a 513-byte needle in a 512-byte
 * haystack may touch 263,000 bytes, more than the firing's budget (262,144 units: DIF
 * instructions plus string bytes), so it faults to ERROR with that reason at once; the
 * firing's other clauses run (their instructions are bounded when the program is loaded).
 */
BEGIN
{
	x = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
	x = strjoin(x, x);
	x = strjoin(x, x);
	x = strjoin(x, x);
	y = strjoin(substr(x, 0, 512), "b");
	n = index(x, y) + index(x, y) + index(x, y) + index(x, y);
	printf("not reached %d\n", n);
}

ERROR
{
	printf("ERROR fault %d\n", arg4);
}

BEGIN
{
	printf("the next clause runs\n");
}
