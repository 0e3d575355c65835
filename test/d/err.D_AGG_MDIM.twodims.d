/* an aggregation indexed twice, as if it had two dimensions */
BEGIN
{
	@a[1][2] = count();
}
