/* trace() in non-quiet mode: widths follow the value's size */
BEGIN
{
	trace(1);
	trace((char)2);
	trace((short)3);
	trace(4L);
	trace("five");
	trace(-6);
}

BEGIN
{
	exit(0);
}
