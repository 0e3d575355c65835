/* Solaris's interrupt devices over kevgen's capture (-n 2000 -s 3), whose system page names
 * none (kevgen writes no IRQDEV records): each line is the device "irq" of its own number,
 * DDEV_MAJOR_LINE 255, and dtrace says so once on stderr; line 8's 152 interrupts, the count
 * of INT_EXIT events traceprinter reads in that capture (tst.kev.sdtinterrupt.d). */
#pragma D option quiet

sdt:::interrupt-complete
{
	this->devi = (struct dev_info *)arg0;
	@[stringof(`devnamesp[this->devi->devi_major].dn_name), this->devi->devi_instance,
	    this->devi->devi_major] = count();
}

END
{
	printa("%s%d major %u: %@d\n", @);
}
