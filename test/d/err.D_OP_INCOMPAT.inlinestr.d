/* an inline's value must suit its declared type */
inline string name = 42;

BEGIN
{
	exit(0);
}
