/* ARGS: -x nspec=1 */
/* with one buffer, a second speculation() before commit/discard gets 0 */
#pragma D option quiet

BEGIN
{
	a = speculation();
	b = speculation();
	printf("%d %d\n", a, b);
	exit(0);
}
