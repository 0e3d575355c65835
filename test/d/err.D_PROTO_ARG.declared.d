/* and its key types */
int hits[int, string];

BEGIN
{
	hits[1, 2] = 2;
}
