proc:::create /arg0 > 3/ { @proc_create[execname, arg0] = count(); }
END { printa("@@P proc_create c %s %d %@d\n", @proc_create); }
