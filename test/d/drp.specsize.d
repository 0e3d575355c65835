/* ARGS: -x specsize=64 */
/* records that do not fit the speculation buffer are speculative drops */
#pragma D option quiet

int n;

BEGIN
{
	self->s = speculation();
}

tick-1ms
/n++ < 5/
{
	speculate(self->s);
	printf("%d\n", n);
}

tick-1ms
/n == 6/
{
	commit(self->s);
}

tick-1ms
/n == 6/
{
	exit(0);
}
