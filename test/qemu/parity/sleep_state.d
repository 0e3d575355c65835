sched:::sleep /demo/ { @sleep_state[execname, arg3] = count(); }
END { printa("@@P sleep_state c %s %d %@d\n", @sleep_state); }
