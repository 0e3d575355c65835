lockstat:::adaptive-release /demo/ { @lock_release[execname, arg0] = count(); }
END { printa("@@P lock_release c %s %d %@d\n", @lock_release); }
