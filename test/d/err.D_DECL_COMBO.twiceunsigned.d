/* Apple's libdtrace refuses a repeated unsigned */
unsigned long unsigned y;

BEGIN
{
	exit(0);
}
