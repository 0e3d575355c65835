/* every argument of the sched probes a capture fires, with the context they fire in: the same
 * firings live and over the capture, argument for argument (but thread-exit's status, arg1,
 * which no capture holds: the test holds dtrace -i to saying so) */
sched::: /demo && probename != "remain-cpu" && probename != "surrender"/ {
	@args_sched[probename, pid, tid, cpu, arg0, probename == "thread-exit" ? 0 : arg1, arg2,
	    arg3, arg4] = count();
}
END { printa("@@P args_sched c %s %d %d %d %d %d %d %d %d %@d\n", @args_sched); }
