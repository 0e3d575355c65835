proc:::exec-success /demo/ { @exec_success[execname, arg0] = count(); }
END { printa("@@P exec_success c %s %d %@d\n", @exec_success); }
