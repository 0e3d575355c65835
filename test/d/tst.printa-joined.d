/* printa( ) of several aggregations joins them on their keys (a key missing from one shows
 * 0 there), sorts the rows by the first aggregation's value, then the next, then the key, and
 * gives each %@ the next aggregation (the last one again when they run out). */
#pragma D option quiet

BEGIN
{
	@calls["read"] = count();
	@calls["write"] = count();
	@calls["open"] = count();
	@calls["open"] = count();
	@bytes["read"] = sum(300);
	@bytes["write"] = sum(100);
	@bytes["close"] = sum(7);
	@most["write"] = max(9);
	printa("%-6s %@3d %@5d\n", @calls, @bytes);
	printa("%-6s %@3d %@5d %@3d %@3d\n", @calls, @bytes, @most);
	printa("%-6s %@d %@d\n", @bytes, @bytes);
	exit(0);
}
