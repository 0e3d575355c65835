sched:::tick /demo/ { @tick[execname] = count(); }
END { printa("@@P tick c %s %@d\n", @tick); }
