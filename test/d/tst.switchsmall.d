/* ARGS: -b 32 -x switchrate=10ms */
/* A clause of assignments only takes no space in a small switch buffer: the counting clause
 * never drops, so the script ends. */
#pragma D option quiet

int n;

tick-10ms
/n < 3/
{
	printf("%d\n", n);
}

tick-10ms
{
	n++;
}

tick-10ms
/n >= 3/
{
	exit(0);
}
