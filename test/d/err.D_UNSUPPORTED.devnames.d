/* a struct devnames member other than the driver's name */
BEGIN
{
	trace(`devnamesp[0].dn_instance);
}
