sched:::enqueue /args[1]->pr_pid > 3/ { @enqueue_count[args[1]->pr_pid, args[0]->pr_lwpid, args[0]->pr_pri] = count(); }
END { printa("@@P enqueue_count c %d %d %d %@d\n", @enqueue_count); }
