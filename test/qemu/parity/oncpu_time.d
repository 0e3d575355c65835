/* the classic on-CPU time per program (Solaris Dynamic Tracing Guide, sched); the test also
 * checks it is sane: the programs' sum at most the span of the switches seen times the CPUs.
 * oncpu_time_vt: the same spans in vtimestamp, the thread's own CPU time (its clocks switch
 * at the RUNNING events live and over the capture alike) */
sched:::on-cpu /demo/ { self->oncpu_t = timestamp; self->oncpu_vt = vtimestamp; }
sched:::on-cpu /oncpu_t0 == 0/ { oncpu_t0 = timestamp; }
sched:::on-cpu /cpu + 1 > oncpu_ncpu/ { oncpu_ncpu = cpu + 1; }
sched:::off-cpu { oncpu_t1 = timestamp; }
sched:::off-cpu /self->oncpu_t/ { @oncpu_time[execname] = sum(timestamp - self->oncpu_t);
    @oncpu_time_vt[execname] = sum(vtimestamp - self->oncpu_vt); self->oncpu_t = 0; }
END { printa("@@P oncpu_time t %s %@d\n", @oncpu_time); printa("@@P oncpu_time_vt t %s %@d\n", @oncpu_time_vt);
    printf("@@P span oncpu %d %d\n", oncpu_t1 - oncpu_t0, oncpu_ncpu); }
