/* NULL with strings: a string subroutine that finds nothing gives a string equal to NULL,
 * and a string variable may be assigned NULL (both are the empty string here). */
#pragma D option quiet

BEGIN
{
	s = "hello";
	this->t = "x";
	printf("%d %d %d\n", strchr(s, 'l') != NULL, strstr(s, "xyz") == NULL, NULL != s);
	s = NULL;
	this->t = NULL;
	printf("%d %d [%s]\n", s == NULL, this->t == NULL, s);
	exit(0);
}
