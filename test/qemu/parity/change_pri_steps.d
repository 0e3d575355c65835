/* arg2 the new priority; args[0]->pr_pri reads arg2 too today (the new), where Solaris's
 * lwpsinfo_t still holds the old (arg3 here): the same on both sides, not yet Solaris's */
sched:::change-pri /args[1]->pr_pid > 3/ { @change_pri_steps[args[1]->pr_pid, args[0]->pr_lwpid, args[0]->pr_pri, arg2] = count(); }
END { printa("@@P change_pri_steps c %d %d %d %d %@d\n", @change_pri_steps); }
