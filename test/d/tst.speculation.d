/* speculative records reach the output only when committed, in order */
#pragma D option quiet

int n;

tick-1ms
/n < 6/
{
	self->spec = speculation();
	n++;
}

tick-1ms
/self->spec/
{
	speculate(self->spec);
	printf("speculated %d\n", n);
}

tick-1ms
/self->spec && n % 2 == 0/
{
	commit(self->spec);
	self->spec = 0;
}

tick-1ms
/self->spec/
{
	discard(self->spec);
	self->spec = 0;
}

tick-1ms
/n == 6/
{
	exit(0);
}
