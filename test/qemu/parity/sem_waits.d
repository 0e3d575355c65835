/* may be empty: the demo has no semaphores or condvars (an application with them gives rows) */
/* semaphore waits (the inversion scripts): blocked waits and acquisitions */
lockstat:::sem-block, lockstat:::sem-acquire, lockstat:::sem-release, lockstat:::cv-block /demo/ { @sem_waits[probename, execname, arg0] = count(); }
sched:::block-sem /args[1]->pr_pid > 3/ { @sem_waits["block-sem", "-", (int64_t)0] = count(); }
END { printa("@@P sem_waits c %s %s %d %@d\n", @sem_waits); }
