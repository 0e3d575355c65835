sched:::dequeue /args[1]->pr_pid > 3/ { @dequeue_count[args[1]->pr_pid, args[0]->pr_lwpid] = count(); }
END { printa("@@P dequeue_count c %d %d %@d\n", @dequeue_count); }
