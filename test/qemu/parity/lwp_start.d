proc:::lwp-start /demo/ { @lwp_start[execname, curlwpsinfo->pr_lwpid, args[0]->pr_lwpid] = count(); }
END { printa("@@P lwp_start c %s %d %d %@d\n", @lwp_start); }
