/* self->a[keys]: associative arrays of the thread, here over several clauses and
 * firings of one probe */
#pragma D option quiet

tick-1ms
/i++ < 3/
{
	self->count[probename, i]++;
	self->count[probename, 100] += i;
	self->names[i] = i == 2 ? "two" : "other";
}

tick-1ms
/i == 4/
{
	printf("%d %d %d %d [%s] [%s] [%s]\n", self->count["tick-1ms", 1],
	    self->count["tick-1ms", 3], self->count["tick-1ms", 100], self->count["x", 1],
	    self->names[1], self->names[2], self->names[9]);
	self->count["tick-1ms", 100] = 0;
	printf("%d\n", self->count["tick-1ms", 100]);
	exit(0);
}
