/* every argument of the interrupt probes, and the context they fire in */
interrupt::: /demo || pid == 0/ { @args_irq[probefunc, probename, pid, tid, cpu, arg0] = count(); }
END { printa("@@P args_irq c %s %s %d %d %d %d %@d\n", @args_irq); }
