/* ARGS: -x aggsortkey -x aggsortrev */
#pragma D option quiet

BEGIN
{
	@["b"] = sum(1);
	@["c"] = sum(3);
	@["a"] = sum(2);
	exit(0);
}
