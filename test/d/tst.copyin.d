/*
 * copyin and copyinstr read the traced process's memory only through the engine's fault-safe
 * reader: here (BEGIN, and a capture that holds no process memory) no address is readable,
 * so each is a fault to ERROR with the address, and the program carries on. The cast of
 * copyin's void * to a struct pointer and the member access compile as DTrace's do.
 */
#pragma D option quiet

struct my_req { int op; int len; };
int errs;

BEGIN { trace(((struct my_req *)copyin(64, sizeof (struct my_req)))->op); }
BEGIN { trace(copyinstr(80)); }
BEGIN { trace(copyinstr(96, 4)); }
BEGIN { printf("%d %d\n", sizeof (*(struct my_req *)0), errs); exit(0); }

ERROR
{
	errs++;
	printf("fault %d at %x\n", arg4, arg5);
}
