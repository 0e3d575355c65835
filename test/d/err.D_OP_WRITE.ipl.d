/* ipl is built in: not writable */
BEGIN
{
	ipl++;
}
