/* the classic on-CPU time per program (Solaris Dynamic Tracing Guide, sched); the test also
 * checks it is sane: the programs' sum at most the span of the switches seen times the CPUs */
sched:::on-cpu /demo/ { self->oncpu_t = timestamp; }
sched:::on-cpu /oncpu_t0 == 0/ { oncpu_t0 = timestamp; }
sched:::on-cpu /cpu + 1 > oncpu_ncpu/ { oncpu_ncpu = cpu + 1; }
sched:::off-cpu { oncpu_t1 = timestamp; }
sched:::off-cpu /self->oncpu_t/ { @oncpu_time[execname] = sum(timestamp - self->oncpu_t); self->oncpu_t = 0; }
END { printa("@@P oncpu_time t %s %@d\n", @oncpu_time); printf("@@P span oncpu %d %d\n", oncpu_t1 - oncpu_t0, oncpu_ncpu); }
