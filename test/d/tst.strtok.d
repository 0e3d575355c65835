/*
 * strtok(s, delims) as DTrace's: leading delimiters are skipped and the token runs to the
 * next one; strtok(NULL, delims) goes on where the last call stopped, in later clauses of the
 * same firing too, each call with its own delimiters. Past the last token the result is NULL,
 * a bad address to print (ERROR sees fault 1, and the clause's other output is dropped).
 */
#pragma D option quiet

BEGIN
{
	printf("[%s]\n", strtok(",,a,bc;;d", ",;"));
	printf("[%s]\n", strtok(NULL, ",;"));
}

BEGIN
{
	printf("[%s]\n", strtok(NULL, ","));
	printf("[%s]\n", strtok("x  y z", " "));
	printf("[%s]\n", strtok(NULL, ""));
}

BEGIN
{
	printf("[%s]\n", strtok("abc", "abc"));
	printf("not reached\n");
}

ERROR
{
	printf("error %d\n", arg4);
	exit(0);
}
