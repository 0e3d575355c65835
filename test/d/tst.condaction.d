/* Actions and subroutines with side effects as ?: operands, as Solaris 10's DTrace took them
 * (the idiom OPT_x ? printf(...) : 1; of scripts written for it): a ?: whose value is dropped
 * runs each arm's actions only when that arm is chosen, nested ?: and comma lists included,
 * under a predicate too. A ?: used for its value still refuses them (err.D_OP_ACT.cond.d). */
#pragma D option quiet

inline int OPT_on = 1;
inline int OPT_off = 0;

BEGIN
{
	n = 0;
	OPT_on ? printf("on: printed\n") : 1;
	OPT_off ? printf("off: never printed\n") : 1;
	OPT_off ? printf("wrong arm\n") : printf("else arm\n");
	OPT_off ? 1 : OPT_on ? (printf("nested %d\n", 2), n++) : printf("wrong\n");
	OPT_on ? trace(n) : 1;
	printf("\n");
}

BEGIN
/n == 1/
{
	OPT_on ? printf("under a predicate\n") : 1;
	n > 5 ? exit(1) : exit(0);
}
