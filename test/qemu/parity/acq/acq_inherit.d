/* acq's mutex inversion, repaired: the logger (10) holds `stats` when the hog preempts it, the
 * filter (30) blocks on it, and the logger inherits 30 (change-pri, cause 2, which fires before
 * the change as Solaris's: args[0]->pr_pri the old priority, arg2 the new). The test holds the
 * priorities against acq's and the count against the filter's blocks on the mutex. */
sched:::change-pri /args[1]->pr_pid > 3 && arg4 == 2/ { @acq_inherit[args[0]->pr_pri, arg2] = count(); }
lockstat:::adaptive-block /pid > 3/ { @acq_inherit_blocks[curlwpsinfo->pr_pri] = count(); }
END { printa("@@P acq_inherit c %d %d %@d\n", @acq_inherit); printa("@@P acq_inherit_blocks c %d %@d\n", @acq_inherit_blocks); }
