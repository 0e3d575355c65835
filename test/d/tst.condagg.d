/* Aggregations as ?: operands, the option idiom of scripts written for Solaris 10 (OPT_x ?
 * @c[probefunc] = count() : 1;): a ?: whose value is dropped aggregates in the arm chosen
 * only, a comma list of them, nested, and beside an action. Six firings (i is 1..6 in them):
 * by hand, @c chosen 6 and inner 6, never none; @s odd 1+3+5 = 9, even 2+4+6 = 12; @m 6. */
#pragma D option quiet

inline int OPT_counts = 1;
inline int OPT_none = 0;

tick-1ms
/i++ < 6/
{
	OPT_counts ? @c["chosen"] = count() : 1;
	OPT_none ? @c["never"] = count() : 1;
	OPT_none ? 1 : (@s[i % 2 ? "odd" : "even"] = sum(i), @m = max(i));
	OPT_counts ? (OPT_none ? @c["never inner"] = count() : (@c["inner"] = count())) : 1;
	OPT_none ? printf("never\n") : (@l = lquantize(i, 0, 10, 5));
}

tick-1ms
/i > 6/
{
	printa("%s %@d\n", @c);
	printa("%s %@d\n", @s);
	printa("max %@d\n", @m);
	printa(@l);
	exit(0);
}
