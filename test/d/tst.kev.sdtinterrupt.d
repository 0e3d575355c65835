/* Solaris's sdt:::interrupt-start and sdt:::interrupt-complete are this kernel's interrupt
 * entry and exit (interrupt::irqN:entry/exit): over kevgen's capture (-n 2000 -s 3) each
 * fires once per interrupt, 152 times on line 8, the count of INT_ENTR and of INT_EXIT events
 * traceprinter reads in that capture; a glob over the sdt names finds both. */
#pragma D option quiet

sdt:::interrupt-start
{
	@start[probefunc, arg0] = count();
}

sdt:::interrupt-complete
{
	@done = count();
}

sdt:::interrupt-*
{
	@both = count();
}

END
{
	printa("start %s line %d: %@d\n", @start);
	printa("complete %@d\n", @done);
	printa("either %@d\n", @both);
}
