/* may be empty: the demo inserts no user event */
/* every argument of user:::event (a string's or a buffer's address and size as served) */
user:::event /demo/ { @args_user[pid, tid, cpu, arg0, arg1, arg2] = count(); }
END { printa("@@P args_user c %d %d %d %d %d %d %@d\n", @args_user); }
