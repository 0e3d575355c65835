/* the clock tick, in the context of the thread it interrupts (idle's execname is "kernel"),
 * while the system's own programs live: between the first's exec-success and the last's exit
 * (on qemu-virt-a53 every CPU's timer fires it, for the thread running there) */
proc:::exec-success /demo/ { tick_live++; }
proc:::exit /arg0 > 3/ { tick_live--; }
sched:::tick /tick_live > 0/ { @tick[execname] = count(); }
END { printa("@@P tick c %s %@d\n", @tick); }
