/* uses of a declared associative array have its key count */
int hits[int, string];

BEGIN
{
	hits[1] = 2;
}
