/* an action is no printf( ) argument */
BEGIN
{
	printf("%d\n", trace(1));
}
