sched:::on-cpu /demo/ { @oncpu_count[execname] = count(); }
END { printa("@@P oncpu_count c %s %@d\n", @oncpu_count); }
