sched:::preempt /demo/ { @preempt[execname, curlwpsinfo->pr_lwpid] = count(); }
END { printa("@@P preempt c %s %d %@d\n", @preempt); }
