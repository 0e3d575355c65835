/*
 * struct and union layout as libdtrace (CTF) computes it: each member on a byte boundary
 * rounded up to its alignment, bit-fields in the smallest integer holding their bits, no
 * tail padding; typedefs of structs; nested and anonymous members; arrays of fixed size.
 */
#pragma D option quiet

struct foo {
	int a;
	char b;
	long c;
	struct foo *next;
	short arr[3];
	unsigned x : 3, y : 12;
	union { int i; char c[6]; } u;
};

typedef struct foo foo_t;
typedef struct { char c; } one_t;
typedef struct pair { int k; int v; } pair_t;

union bar {
	char c;
	long l;
	int a[3];
};

struct later;
struct later {
	struct pair p[2][3];
	struct later *self;
};

struct flex {
	int n;
	char data[];
};

BEGIN
{
	printf("%d %d %d %d %d\n", sizeof (struct foo), sizeof (foo_t), sizeof (one_t),
	    sizeof (union bar), sizeof (pair_t));
	printf("%d %d %d %d %d %d\n", offsetof(struct foo, a), offsetof(struct foo, b),
	    offsetof(foo_t, c), offsetof(struct foo, next), offsetof(struct foo, arr),
	    offsetof(struct foo, u));
	printf("%d %d %d\n", sizeof (struct later), offsetof(struct later, self),
	    offsetof(union bar, a));
	printf("%d %d\n", sizeof (struct flex), offsetof(struct flex, data));
	printf("%d %d %d %d\n", sizeof (int *), sizeof (struct foo *), sizeof (char **),
	    sizeof (struct foo) * 2 + 1);
	exit(0);
}
