/* printa( ) of several aggregations without a format: the key, then each value in %16d
 * columns; aggsortpos picks the aggregation compared first, aggsortrev reverses. */
#pragma D option quiet

BEGIN
{
	@a[1] = sum(30);
	@a[2] = sum(10);
	@a[3] = sum(10);
	@b[1] = sum(5);
	@b[2] = sum(6);
	@b[3] = sum(4);
	printa(@a, @b);
	setopt("aggsortpos", "1");
	printa(@a, @b);
	setopt("aggsortrev");
	printa(@a, @b);
	exit(0);
}
