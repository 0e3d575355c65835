/* the time a context switch takes, sched:::off-cpu (when the thread going off left RUNNING)
 * to sched:::on-cpu (when the next one runs) on the same CPU, after a program's thread */
sched:::off-cpu /demo/ { switch_off[cpu] = timestamp; }
sched:::on-cpu /switch_off[cpu]/ { @switch_time = sum(timestamp - switch_off[cpu]); @switch_n = count();
    @switch_max = max(timestamp - switch_off[cpu]); switch_off[cpu] = 0; }
END { printa("@@P switch_time t %@d\n", @switch_time); printa("@@P switch_n c %@d\n", @switch_n);
    printa("@@P switch_max t %@d\n", @switch_max); }
