/*
 * uaddr( ) is an address printed by name: a value only where a record is (trace( ),
 * printf( ), an aggregation key), not in an expression.
 */
BEGIN
{
	x = uaddr(arg0) + 1;
}
