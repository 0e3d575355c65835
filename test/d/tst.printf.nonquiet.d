/* non-quiet printf: after the probe columns, then the record's newline */
BEGIN
{
	printf("hello %s", "world");
}

BEGIN
{
	printf("%d\n", 2);
	exit(0);
}
