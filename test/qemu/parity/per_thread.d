sched:::on-cpu /demo/ { @per_thread[pid, tid, args[1]->pr_pid, args[0]->pr_lwpid, args[0]->pr_addr] = count(); }
END { printa("@@P per_thread c %d %d %d %d %d %@d\n", @per_thread); }
