/* run-queue latency keyed by process and thread (Solaris guide, sched) */
sched:::enqueue /args[1]->pr_pid > 3/ { runq_ts[args[1]->pr_pid, args[0]->pr_lwpid] = timestamp; }
sched:::dequeue /runq_ts[args[1]->pr_pid, args[0]->pr_lwpid]/ {
	@runq_n[args[1]->pr_pid, args[0]->pr_lwpid] = count();
	@runq_t[args[1]->pr_pid, args[0]->pr_lwpid] = sum(timestamp - runq_ts[args[1]->pr_pid, args[0]->pr_lwpid]);
	runq_ts[args[1]->pr_pid, args[0]->pr_lwpid] = 0;
}
END { printa("@@P runq_latency_n c %d %d %@d\n", @runq_n); printa("@@P runq_latency_t t %d %d %@d\n", @runq_t); }
