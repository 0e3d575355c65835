/* so are the operands of || */
BEGIN
/probefunc || 1/
{
	exit(0);
}
