/* ARGS: 42 pid a+b 0x10 */
/* Script arguments as dtrace(1M)'s operands: $1 an integer, $2 an identifier (the built-in
 * pid here), $3 a string (neither an integer nor a name), $$4 always a string, $0 the
 * script. */
#pragma D option quiet

BEGIN
{
	printf("%d %d %s %s %d\n", $1 + 1, $2 == pid, $3, $$4, $4);
	printf("%s\n", basename($$0));
	exit(0);
}
