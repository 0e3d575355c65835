sched:::block-* /args[1]->pr_pid > 3/ { @block_reasons[probename] = count(); }
END { printa("@@P block_reasons c %s %@d\n", @block_reasons); }
