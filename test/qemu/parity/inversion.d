/* may be empty: contention depends on the batch's timing (the test checks that some batch has it) */
/* a thread blocked on a mutex while its owner ran at a lower priority */
lockstat:::adaptive-block /demo/ { @inversion[execname, curlwpsinfo->pr_pri, arg2 >> 16, arg2 & 0xffff] = count(); }
sched:::change-pri /args[1]->pr_pid > 3 && arg4 == 2/ { @inh[args[1]->pr_pid, args[0]->pr_lwpid, arg2] = count(); }
END { printa("@@P inversion c %s %d %d %d %@d\n", @inversion); printa("@@P inversion_inh c %d %d %d %@d\n", @inh); }
