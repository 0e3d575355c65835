sched:::wakeup /args[1]->pr_pid > 3/ { @wakeup_from[args[1]->pr_pid, args[0]->pr_lwpid, arg3] = count(); }
END { printa("@@P wakeup_from c %d %d %d %@d\n", @wakeup_from); }
