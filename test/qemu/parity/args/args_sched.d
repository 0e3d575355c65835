/* every argument of the sched probes a capture fires, with the context they fire in: the same
 * firings live and over the capture, argument for argument (but thread-exit's status, arg1,
 * which no capture holds: the test holds dtrace -i to saying so; and enqueue's run queue,
 * arg3, which on several CPUs the capture does not say: -1 over it, docs/d-probes.md; on one
 * CPU 0 both ways. dequeue's is compared: the CPU's own, or a steal's source, STEAL's) */
sched::: /demo && probename != "remain-cpu" && probename != "surrender"/ {
	@args_sched[probename, pid, tid, cpu, arg0, probename == "thread-exit" ? 0 : arg1, arg2,
	    probename == "enqueue" ? 0 : arg3, arg4] = count();
}
END { printa("@@P args_sched c %s %d %d %d %d %d %d %d %d %@d\n", @args_sched); }
