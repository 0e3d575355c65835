/* an action is no value for ?: */
BEGIN
{
	x = 1 ? printf("a") : printf("b");
}
