interrupt::: /demo/ { @irq[probefunc, probename] = count(); }
END { printa("@@P irq c %s %s %@d\n", @irq); }
