/* a string compared with NULL, and NULL assigned to a string: the subset has no null string,
 * the empty string stands for it (strchr and strstr give it when they find nothing) */
#pragma D option quiet

BEGIN
{
	s = "abc";
	this->t = "x";
	printf("%d %d %d\n", strchr(s, 'z') == NULL, NULL != strstr(s, "bc"),
	    strrchr(s, 'q') != NULL);
	s = NULL;
	this->t = NULL;
	printf("%d %d [%s]\n", s == NULL, this->t == NULL, s);
	exit(0);
}
