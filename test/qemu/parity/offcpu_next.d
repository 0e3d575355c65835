/* off-cpu: args[0], args[1] are the thread coming on */
sched:::off-cpu /demo/ { @offcpu_next[execname, args[1]->pr_pid, args[0]->pr_lwpid] = count(); }
END { printa("@@P offcpu_next c %s %d %d %@d\n", @offcpu_next); }
