sched:::on-cpu /demo/ { @prio_seen[execname, curlwpsinfo->pr_pri, args[0]->pr_pri] = count(); }
END { printa("@@P prio_seen c %s %d %d %@d\n", @prio_seen); }
