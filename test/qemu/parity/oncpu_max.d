sched:::on-cpu /demo/ { self->oncpu_m = timestamp; }
sched:::off-cpu /self->oncpu_m/ { @oncpu_max[execname] = max(timestamp - self->oncpu_m); self->oncpu_m = 0; }
END { printa("@@P oncpu_max t %s %@d\n", @oncpu_max); }
