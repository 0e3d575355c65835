sched:::off-cpu /demo/ { @offcpu_count[execname] = count(); }
END { printa("@@P offcpu_count c %s %@d\n", @offcpu_count); }
