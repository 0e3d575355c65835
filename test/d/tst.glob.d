/* globs and partial descriptions resolve against the probe table */
#pragma D option quiet

kercall::Msg*:entry,
kercall::[MT]*:return,
sched:::on-c?u,
interrupt::irq1:
{
	@[probefunc] = count();
}

proc:::,
msg:::send
/pid == 5/
{
	trace(arg0);
}

BEGIN
{
	exit(0);
}
