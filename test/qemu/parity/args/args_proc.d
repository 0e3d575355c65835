/* every argument of the proc probes a capture fires (create and exit of the system's own
 * programs whatever the context they fire in), but exit's status (arg1), which no capture
 * holds: the test holds dtrace -i to saying so */
proc::: /(demo || ((probename == "create" || probename == "exit") && arg0 > 3)) && probename != "signal-send"/ {
	@args_proc[probename, pid, tid, cpu, arg0, probename == "exit" ? 0 : arg1, arg2] = count();
}
END { printa("@@P args_proc c %s %d %d %d %d %d %d %@d\n", @args_proc); }
