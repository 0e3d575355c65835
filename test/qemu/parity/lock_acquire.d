lockstat:::adaptive-acquire /demo/ { @lock_acquire[execname, arg0] = count(); }
END { printa("@@P lock_acquire c %s %d %@d\n", @lock_acquire); }
