sched:::block-* /args[1]->pr_pid > 3/ { @block_who[probename, args[0]->pr_pid, args[0]->pr_lwpid] = count(); }
END { printa("@@P block_who c %s %d %d %@d\n", @block_who); }
