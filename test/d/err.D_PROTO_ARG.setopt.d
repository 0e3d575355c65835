/* setopt( ) takes strings (dt_open.c's prototype) */
BEGIN
{
	setopt("quiet", 1);
}
