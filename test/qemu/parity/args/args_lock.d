/* every argument of the lockstat probes a capture fires but the time blocked
 * (lock_block_time.d): the object, the owner (the spin-* probes of the kernel's own locks have
 * no event: dtrace -i says they do not fire over a capture) */
lockstat::: /demo && probename != "spin-acquire" && probename != "spin-spin" && probename != "spin-release"/ {
	@args_lock[probename, pid, tid, cpu, arg0, arg2] = count();
}
END { printa("@@P args_lock c %s %d %d %d %d %d %@d\n", @args_lock); }
