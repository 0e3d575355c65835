/* a translator must produce a struct or union */
translator int < long v > { x = v; };

BEGIN
{
	
	exit(0);
}
