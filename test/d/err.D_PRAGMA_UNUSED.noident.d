/* attributes of an identifier the program never defines */
#pragma D attributes Evolving/Evolving/Common nowhere

BEGIN
{
	exit(0);
}
