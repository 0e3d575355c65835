/* min, max, avg, stddev over negative and positive values; trunc to the bottom; denormalize */
#pragma D option quiet

BEGIN
{
	@mn = min(-5); @mn = min(3); @mn = min(-7);
	@mx = max(-5); @mx = max(3); @mx = max(-7);
	@av = avg(-4); @av = avg(10); @av = avg(3);
	@sd = stddev(2); @sd = stddev(4); @sd = stddev(4); @sd = stddev(4);
	@sd = stddev(5); @sd = stddev(5); @sd = stddev(7); @sd = stddev(9);
	@c["a"] = count(); @c["b"] = count(); @c["b"] = count(); @c["c"] = count();
	@c["c"] = count(); @c["c"] = count();
	@n["x"] = sum(600);
}

BEGIN
{
	trunc(@c, -2);
	normalize(@n, 100);
	printa("normalized %s %@d\n", @n);
	denormalize(@n);
	printa("denormalized %s %@d\n", @n);
	exit(0);
}
