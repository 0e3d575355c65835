/* A clause-local variable first assigned 0 keeps 64 bits through += and a later clause of
 * the same firing; a narrowing cast still cuts. */
#pragma D option quiet

BEGIN
{
	this->acc = 0;
	this->acc += 0x300000000;
	this->acc += 7;
}

BEGIN
{
	printf("%d %d\n", this->acc / 0x100000000, this->acc % 0x100000000);
	printf("%d\n", (uint16_t)this->acc);
	exit(0);
}
