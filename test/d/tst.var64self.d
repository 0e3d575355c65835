/* A thread-local variable first assigned 0 holds the 64 bits of a later timestamp-sized
 * value: the classic start/elapsed pair subtracts to the true difference, not to one cut
 * at 32 bits (a start of 2^32 + 5 and an end 2^33 give 2^32 - 5). */
#pragma D option quiet

BEGIN
{
	self->start = 0;
	self->start = 0x100000005;
	self->end = 0x200000000;
	printf("%d\n", self->end - self->start);
	printf("%d\n", self->start > 0xffffffff);
	self->start++;
	printf("%d\n", self->start - 0x100000000);
	exit(0);
}
