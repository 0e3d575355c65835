/* each action starts with the firing's scratch empty (a clause calling neither alloca( )
 * nor copyin( )): twelve string results in twelve actions of one clause fit the scratch of
 * eight strings, as they fit DTrace's larger scratch */
#pragma D option quiet

BEGIN
{
	s = "ab";
	printf("%s ", strjoin(s, lltostr(1)));
	printf("%s ", strjoin(s, lltostr(2)));
	printf("%s ", strjoin(s, lltostr(3)));
	printf("%s ", strjoin(s, lltostr(4)));
	printf("%s ", strjoin(s, lltostr(5)));
	printf("%s ", strjoin(s, lltostr(6)));
	printf("%s ", strjoin(s, lltostr(7)));
	printf("%s ", strjoin(s, lltostr(8)));
	printf("%s ", strjoin(s, lltostr(9)));
	printf("%s ", strjoin(s, lltostr(10)));
	printf("%s ", strjoin(s, lltostr(11)));
	printf("%s ", strjoin(s, lltostr(12)));
	printf("\n");
	exit(0);
}
