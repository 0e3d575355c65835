/* A ?: statement whose condition is an integer constant (inlines, !, &&, ||) is its chosen arm
 * alone, the other never compiled, as libdtrace's parser folds it (dt_node_op3): the
 * DTraceToolkit's dapptrace keeps @Counts[probemod, probefunc] and @Counts[probefunc] in two
 * such arms, and an arm never chosen may name what does not exist. A condition known only at
 * run time still compiles both arms and runs the one chosen. Six firings (i is 1..6 in them):
 * by hand, @c["tick-1ms"] 6 and no two-key row; "not all" once; @odd 3 (i = 1, 3, 5). */
#pragma D option quiet

inline int OPT_all = 0;
inline int OPT_counts = 1;

tick-1ms
/i++ < 6/
{
	OPT_counts && OPT_all ? @c[probeprov, probename] = count() : 1;
	OPT_counts && ! OPT_all ? @c[probename] = count() : 1;
	OPT_all || ! OPT_counts ? printf("%d\n", no_such_variable) : 1;
	i == 1 && (OPT_all ^^ OPT_counts) ? printf("not all\n") : 1;
	i % 2 ? @odd = count() : 1;
}

tick-1ms
/i > 6/
{
	printa("%s %@d\n", @c);
	printa("odd %@d\n", @odd);
	exit(0);
}
