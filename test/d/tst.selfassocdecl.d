/* A declared thread-local associative array (the Dynamic Tracing Guide, "Thread-Local
 * Variables": a self-> variable may be an associative array; declared, its key and value types
 * are the declaration's): self int depth[int] as a call-depth tracker keeps a count per key,
 * an element never assigned reads as 0 (or "" for a string), assigning 0 frees it (it reads 0
 * again), the declared int holds 32 bits (0x100000005 keeps 5; 0x7fffffff + 1 is -2147483648,
 * as a declared int global), a global array of the same name is another variable, an
 * undeclared self-> array beside it keeps 64 bits, and a struct value's members are written
 * and read in place (one never named reads as zeroes). Expected by hand from those rules. */
#pragma D option quiet

self int depth[int];
self string name[int, string];
struct frame { int line; string file; };
self struct frame frames[int];
int depth[int];

BEGIN
{
	self->depth[1]++;
	self->depth[1]++;
	self->depth[2] = 5;
	depth[1] = 100;
	printf("%d %d %d %d\n", self->depth[1], self->depth[2], self->depth[3], depth[1]);
	self->depth[1] -= self->depth[1] > 0 ? 1 : 0;
	self->depth[3] -= self->depth[3] > 0 ? 1 : 0;
	printf("%d %d\n", self->depth[1], self->depth[3]);
	self->depth[2] = 0;
	printf("%d\n", self->depth[2]);
	self->depth[4] = 0x100000005;
	self->depth[5] = 0x7fffffff;
	self->depth[5]++;
	printf("%d %d\n", (int64_t)self->depth[4], (int64_t)self->depth[5]);
	self->wide[1] = 0x100000005;
	printf("%d\n", (int64_t)self->wide[1]);
	self->name[1, "a"] = "one";
	printf("[%s] [%s] [%s]\n", self->name[1, "a"], self->name[1, "b"], self->name[2, "a"]);
	self->frames[1].line = 42;
	self->frames[1].file = "main.c";
	self->frames[1].line++;
	printf("%s:%d %d\n", self->frames[1].file, self->frames[1].line, self->frames[2].line);
	exit(0);
}
