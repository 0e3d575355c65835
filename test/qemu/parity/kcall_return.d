kercall:::return /demo/ { @kcall_return[probefunc, arg0 < 0] = count(); }
END { printa("@@P kcall_return c %s %d %@d\n", @kcall_return); }
