/* Declaration specifiers in any order, C declarators, and declarations that declare nothing
 * this system runs: extern symbols and function prototypes are checked, then ignored. */
#pragma D option quiet

extern int e0, *e1, **e2;
extern unsigned long long e3[4][2];
extern int getint(void), *getptr(void);
extern int *(*fnptr)(void);
extern int varargs(int, ...);
int proto(int a, char *b);
int noparams();
const volatile unsigned int cv;
short int unsigned su;
self x;
this y;
int (*callback)(int);

BEGIN
{
	cv = 4294967295;
	su = 65535;
	self->x = 2147483647;
	this->y = 7;
	printf("%d %d %d %d\n", sizeof (unsigned short int), sizeof (long long int),
	    sizeof (signed char), sizeof (long double));
	printf("%d %d %d %d\n", sizeof (uint_t), sizeof (ulong_t), sizeof (int (*)(void)),
	    sizeof (char **));
	printf("%u %u %d %d\n", cv, su, self->x, this->y);
	printf("%d %d %d\n", sizeof (cv), sizeof (su), sizeof (callback));
	exit(0);
}
