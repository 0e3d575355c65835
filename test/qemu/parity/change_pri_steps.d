/* arg2 the new priority, args[0]->pr_pri still the old (Solaris: fires before) */
sched:::change-pri /args[1]->pr_pid > 3/ { @change_pri_steps[args[1]->pr_pid, args[0]->pr_lwpid, args[0]->pr_pri, arg2] = count(); }
END { printa("@@P change_pri_steps c %d %d %d %d %@d\n", @change_pri_steps); }
