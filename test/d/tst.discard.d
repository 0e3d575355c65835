/* a clause of discard( ), commit( ) and assignments records nothing (DTrace sizes its record
 * 0), so its firings print no line, not even its probe's; the committed records print under
 * their own probe, and exit( )'s clause prints its probe's line */
int n;

tick-1ms
/n < 4/
{
	self->spec = speculation();
	n++;
}

tick-1ms
/self->spec/
{
	speculate(self->spec);
	printf("speculated %d", n);
}

tick-1ms
/self->spec && n == 4/
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
/n == 4/
{
	exit(0);
}
