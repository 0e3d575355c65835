/* ARGS: -x aggsortkey -x aggsortkeypos=1 */
#pragma D option quiet

BEGIN
{
	@[1, "c"] = count();
	@[2, "a"] = count();
	@[3, "b"] = count();
	@[0, "a"] = count();
	exit(0);
}
