/* ARGS: -b 512 -x bufpolicy=ring */
/* ring: only the newest records survive, printed oldest first at the end */
#pragma D option quiet

int i;

tick-1ms
/i < 100/
{
	printf("%d ", ++i);
}

tick-1ms
/i == 100/
{
	exit(0);
}
