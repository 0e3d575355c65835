/* ARGS: -C */
#define ANSWER	(6 * 7)
#define SAY(x)	printf("%s=%d\n", #x, x)
#pragma D option quiet

BEGIN
{
	SAY(ANSWER);
#ifdef NOT_DEFINED
	printf("not here\n");
#endif
	exit(0);
}
