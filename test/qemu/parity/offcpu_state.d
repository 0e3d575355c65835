/* ours: arg3 of off-cpu is the state the thread goes off in */
sched:::off-cpu /demo/ { @offcpu_state[execname, arg3] = count(); }
END { printa("@@P offcpu_state c %s %d %@d\n", @offcpu_state); }
