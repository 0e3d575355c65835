sched:::thread-create, proc:::lwp-create /args[1]->pr_pid > 3/ { @thread_create[probename, args[1]->pr_pid, args[0]->pr_lwpid, args[0]->pr_pri] = count(); }
END { printa("@@P thread_create c %s %d %d %d %@d\n", @thread_create); }
