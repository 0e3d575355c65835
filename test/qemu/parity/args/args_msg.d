/* every argument of the msg probes (a message's size, arg2, only in a wide capture: the test
 * holds dtrace -i to saying so in a fast one) */
msg::: /demo/ { @args_msg[probename, pid, tid, cpu, arg0, arg1, wide ? arg2 : 0, arg3] = count(); }
END { printa("@@P args_msg c %s %d %d %d %d %d %d %d %@d\n", @args_msg); }
