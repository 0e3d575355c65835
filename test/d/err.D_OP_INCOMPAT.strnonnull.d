/* only NULL (a constant 0) compares with a string */
BEGIN
{
	trace(execname == 1);
}
