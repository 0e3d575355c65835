msg::: /demo/ { @msg[execname, probename] = count(); }
END { printa("@@P msg c %s %s %@d\n", @msg); }
