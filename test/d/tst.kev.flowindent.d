/* ARGS: -F */
/*
 * dtrace -F (flowindent): entry probes print " -> func" and indent what follows by two
 * columns, return probes come back and print " <- func", others "| func:name"; the header is
 * CPU and FUNCTION (dtrace(1M)'s layout). Over kevgen's capture, the client's first events.
 */
int n;

kercall:::entry,
kercall:::return,
sched:::on-cpu
/pid == 4 && n < 8/
{
}

kercall:::entry,
kercall:::return,
sched:::on-cpu
/pid == 4/
{
	n++;
}

profile:::tick-1ms
/n >= 8/
{
	exit(0);
}
