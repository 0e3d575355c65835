sched:::change-pri /args[1]->pr_pid > 3/ { @change_pri_cause[arg4] = count(); }
END { printa("@@P change_pri_cause c %d %@d\n", @change_pri_cause); }
