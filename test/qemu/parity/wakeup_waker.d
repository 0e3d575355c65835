sched:::wakeup /demo && args[1]->pr_pid > 3/ { @wakeup_waker[execname, args[1]->pr_pid] = count(); }
END { printa("@@P wakeup_waker c %s %d %@d\n", @wakeup_waker); }
