/* Declared associative arrays: the declaration gives the keys' and the value's types. */
#pragma D option quiet

int hits[int, string];
string names[uint64_t];

BEGIN
{
	hits[1, "a"] = 10;
	hits[2, "b"]++;
	names[3] = "three";
	printf("%d %d %d %s [%s]\n", hits[1, "a"], hits[2, "b"], hits[3, "c"], names[3],
	    names[4]);
	exit(0);
}
