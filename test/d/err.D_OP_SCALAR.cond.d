/* the condition of ?: is of scalar type */
BEGIN
{
	x = probename ? 1 : 2;
}
