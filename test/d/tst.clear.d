#pragma D option quiet

BEGIN
{
	@a["k"] = sum(5);
	@b[1] = count();
	@b[2] = count();
	@b[2] = count();
	@b[3] = count();
	@b[3] = count();
	@b[3] = count();
	@n["x"] = sum(1000);
	@n["y"] = sum(3000);
}

BEGIN
{
	clear(@a);
	trunc(@b, 2);
	normalize(@n, 1000);
	exit(0);
}
