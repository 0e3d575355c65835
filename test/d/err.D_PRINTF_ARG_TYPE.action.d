/* an action as a printf value */
BEGIN
{
	printf("%d\n", trace(1));
}
