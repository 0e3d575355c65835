/* a name that is no D function at all */
BEGIN
{
	x = nosuchfunction(1);
}
