/* Character constants: C escapes (octal, \x hex), and up to 8 characters packed first
 * character highest; one that does not fit an int is a long. */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d\n", '\x41', '\101', '\?', '\c');
	printf("%d %d\n", 'ab', '\0103');
	printf("%d %d\n", sizeof ('ab'), sizeof ('abcdefgh'));
	printf("%x\n", 'abcdefgh');
	exit(0);
}
