/* index(s, sub, start) searches from start on, rindex(s, sub, start) from start back, as
 * DTrace's: a negative start is 0 for index( ), finds only "" for rindex( ); a start past the
 * end finds only "" (at the end) for index( ), is the end for rindex( ). */
#pragma D option quiet

BEGIN
{
	s = "abcabcabc";
	printf("%d %d %d %d %d\n", index(s, "abc", 0), index(s, "abc", 1), index(s, "abc", 4),
	    index(s, "abc", 7), index(s, "abc", -5));
	printf("%d %d %d %d %d\n", rindex(s, "abc", 9), rindex(s, "abc", 5), rindex(s, "abc", 2),
	    rindex(s, "abc", 0), rindex(s, "abc", -1));
	printf("%d %d %d %d\n", index(s, "", 4), index(s, "", 20), rindex(s, "", 4),
	    rindex(s, "", -3));
	printf("%d %d\n", index("", "", 3), rindex("", "x", 3));
	exit(0);
}
