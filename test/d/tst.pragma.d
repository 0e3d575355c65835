#pragma ident	"tst.pragma.d"
#pragma D option quiet
#pragma D option strsize=16

BEGIN
{
	printf("[%s]\n", strjoin("0123456789", "abcdefghij"));
	exit(0);
}
