/* ARGS: -x aggsize=100t -x specsize=100t */
/* bufresize=auto halves aggsize and specsize, like bufsize, until the buffers fit the
 * engine's memory, and says so. */
#pragma D option quiet

BEGIN
{
	@ = count();
	s = speculation();
}

BEGIN
{
	speculate(s);
	printf("committed\n");
}

BEGIN
{
	commit(s);
}

BEGIN
{
	exit(0);
}
