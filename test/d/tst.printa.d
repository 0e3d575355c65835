#pragma D option quiet

BEGIN
{
	@c["b"] = count();
	@c["a"] = count();
	@c["a"] = count();
	@s["x", 1] = sum(10);
	@s["y", 2] = sum(5);
	printa(@c);
	printa("%-4s %@d\n", @c);
	printa("key=%s n=%d sum=%@4d;\n", @s);
	printf("done\n");
	exit(0);
}
