/* nor an aggregation */
BEGIN
{
	@c = count();
	trace((long)&@c);
}
