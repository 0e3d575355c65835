/* every argument of the lockstat probes but the time blocked (lock_block_time.d): the
 * object, the owner */
lockstat::: /demo/ { @args_lock[probename, pid, tid, cpu, arg0, arg2] = count(); }
END { printa("@@P args_lock c %s %d %d %d %d %d %@d\n", @args_lock); }
