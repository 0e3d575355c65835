#pragma D option quiet

BEGIN
{
	s = "hello";
	t = strjoin(s, ", world");
	printf("%s|%d\n", t, strlen(t));
	printf("%s|%s|%s\n", substr(t, 7), substr(t, 0, 5), substr(t, -5));
	printf("%d %d %d\n", index(t, "o"), rindex(t, "o"), index(t, "zz"));
	printf("%s %s\n", toupper(s), tolower("MiXeD"));
	printf("%s %d\n", lltostr(-1234), strtoll("987") + 1);
	printf("%s\n", strstr(t, "wor"));
	printf("%d %d %d\n", s == "hello", s != "hello", "abc" < "abd");
	printf("%s %s\n", probeprov, probename);
	exit(0);
}
