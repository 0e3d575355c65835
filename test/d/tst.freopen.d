/* freopen( ) sends what follows to a file; freopen("") back to the standard output */
#pragma D option quiet
#pragma D option destructive

BEGIN
{
	printf("one\n");
	freopen("/dev/null");
	printf("lost\n");
	freopen("");
	printf("two\n");
	exit(0);
}
