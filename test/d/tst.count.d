/* default aggregation output: sorted by value, then key */
#pragma D option quiet

tick-1ms
/i++ < 20/
{
	@calls[i % 3 == 0 ? "three" : i % 2 ? "odd" : "even"] = count();
	@total = sum(i);
	@small = min(i);
	@big = max(i);
	@mean[i % 2] = avg(i);
}

tick-1ms
/i > 20/
{
	exit(0);
}
