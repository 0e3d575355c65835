proc:::lwp-exit /args[1]->pr_pid > 3/ { @lwp_exit[args[1]->pr_pid, args[0]->pr_lwpid] = count(); }
END { printa("@@P lwp_exit c %d %d %@d\n", @lwp_exit); }
