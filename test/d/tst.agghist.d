/* agghist draws count( ) and sum( ) aggregations as histograms: one row per key, the bars
 * against the total of the rows (aggzoom: against the largest over 0.95), under a header as
 * wide as the keys (16 columns for a string or a long, 8 for an int, plus one each). Set here
 * with setopt( ), which the board's dtrace takes too; -x agghist on the host. */
#pragma D option quiet

BEGIN
{
	setopt("agghist");
	@s["up", 1] = sum(30);
	@s["down", 2] = sum(-10);
	@c[(int)7] = count();
	@c[(int)8] = count();
	@c[(int)8] = count();
	printa(@s);
	printa(@c);
	setopt("aggzoom");
	printa(@c);
	exit(0);
}
