/* the classic on-CPU time per program (Solaris Dynamic Tracing Guide, sched) */
sched:::on-cpu /demo/ { self->oncpu_t = timestamp; }
sched:::off-cpu /self->oncpu_t/ { @oncpu_time[execname] = sum(timestamp - self->oncpu_t); self->oncpu_t = 0; }
END { printa("@@P oncpu_time t %s %@d\n", @oncpu_time); }
