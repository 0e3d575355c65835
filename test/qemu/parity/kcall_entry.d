kercall:::entry /demo/ { @kcall_entry[execname, probefunc] = count(); }
END { printa("@@P kcall_entry c %s %s %@d\n", @kcall_entry); }
