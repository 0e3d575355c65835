/* The time a context switch takes on a CPU: sched:::off-cpu (the choice, in the context of
 * the thread going off, a program's) to the next sched:::on-cpu there (the kernel's return
 * into the one coming on, in its context), as Solaris fires them. The test holds the total
 * above 0 and the longest under a bound on each side; switch_ctx counts the switches whose on-cpu ran in
 * another context than the one off-cpu named (0 as Solaris's semantics say), switch_back the
 * firings whose timestamp went back on their CPU (0: never). test_dprobe_parity.sh holds the
 * capture's answer to test/tools/switch_time_total.py's over traceprinter's events. */
uint64_t switch_last[int];
sched:::off-cpu /demo/ { switch_off[cpu] = timestamp; switch_pid[cpu] = args[1]->pr_pid;
    switch_tid[cpu] = args[0]->pr_lwpid; @switch_ctx = sum(pid == args[1]->pr_pid && tid == args[0]->pr_lwpid); }
sched:::on-cpu /switch_off[cpu]/ { @switch_time = sum(timestamp - switch_off[cpu]); @switch_n = count();
    @switch_max = max(timestamp - switch_off[cpu]);
    @switch_ctx = sum(pid != switch_pid[cpu] || tid != switch_tid[cpu]); switch_off[cpu] = 0; }
sched:::, proc:::, msg::: /timestamp < switch_last[cpu]/ { switch_back_n++; }
sched:::, proc:::, msg::: { switch_last[cpu] = timestamp; }
END { printa("@@P switch_time t %@d\n", @switch_time); printa("@@P switch_n c %@d\n", @switch_n);
    printa("@@P switch_max t %@d\n", @switch_max); printa("@@P switch_ctx c %@d\n", @switch_ctx);
    printf("@@P switch_back c %d\n", switch_back_n); }
