/* += reads its left operand, which nothing assigned before */
BEGIN
{
	total += 4;
}
