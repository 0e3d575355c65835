/*
 * The syscall provider as DTrace users' scripts use it: a count by call name, a start time
 * kept in the thread by the call's name and read at its return, a glob over names. Its probes
 * are the kernel calls' (kercall's): over kevgen's capture (-n 2000 -s 3) every syscall count
 * equals the kercall count of the same call, and the totals are the 265 KER_CALL and 265
 * KER_EXIT events traceprinter reads in that capture (MSG_SENDV/11: 3, MSG_REPLYV/15: 9,
 * ThreadSleep/53: 8 of them).
 */
#pragma D option quiet

syscall:::entry
{
	self->ts[probefunc] = timestamp;
	@sys[probefunc] = count();
	@entries = count();
}

kercall:::entry
{
	@ker[probefunc] = count();
}

syscall:::entry,
kercall:::entry
{
	@both = count();
}

syscall:::return
/self->ts[probefunc]/
{
	@paired = count();
	self->ts[probefunc] = 0;
}

syscall:::return
{
	@returns = count();
}

syscall::Msg*:return,
syscall::ThreadSleep:return
{
	@some[probeprov, probefunc, probename] = count();
}

END
{
	printa("entries %@d\n", @entries);
	printa("returns %@d\n", @returns);
	printa("returns after their entry %@d\n", @paired);
	printa("each entry twice (syscall and kercall) %@d\n", @both);
	printa("%s:%s:%s %@d\n", @some);
}
