#pragma D option quiet

BEGIN
{
	printf("[%d] [%i] [%u] [%o] [%x] [%X] [%c] [%s] [%%]\n", -42, 7, 42, 8, 255, 255, 65, "str");
	printf("[%5d] [%-5d] [%05d] [%+d] [% d] [%.3d] [%#x] [%#o]\n", 42, 42, 42, 42, 42, 7, 255, 8);
	printf("[%10s] [%-10s] [%.2s] [%*d] [%-*d] [%.*s]\n", "right", "left", "truncate", 6, 1, 4, 2, 3, "abcdef");
	printf("[%u] [%x] [%d]\n", (int)-1, (char)-1, 0x7fffffffffffffff);
	printf("[%lld] [%ld] [%hd]\n", 1LL << 40, -5L, (short)3);
	printf("no conversions\n");
	exit(0);
}
