/* every argument of the kernel calls' probes: entry (six; two in a fast capture, where the
 * test holds dtrace -i to saying so), return (two) */
kercall:::entry /demo/ {
	@args_kcall_entry[probefunc, pid, tid, cpu, arg0, arg1, wide ? arg2 : 0, wide ? arg3 : 0,
	    wide ? arg4 : 0, wide ? arg5 : 0] = count();
}
kercall:::return /demo/ { @args_kcall_return[probefunc, pid, tid, cpu, arg0, arg1] = count(); }
END {
	printa("@@P args_kcall_entry c %s %d %d %d %d %d %d %d %d %d %@d\n", @args_kcall_entry);
	printa("@@P args_kcall_return c %s %d %d %d %d %d %@d\n", @args_kcall_return);
}
