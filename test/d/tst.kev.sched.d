/* on a capture: every switch away has a thread coming on, and time never goes back */
#pragma D option quiet

uint64_t last;

sched:::on-cpu
{
	on++;
	@names[execname] = count();
}

sched:::off-cpu
{
	off++;
}

kercall:::, interrupt:::, sched:::, msg:::
/timestamp < last/
{
	backwards++;
}

kercall:::, interrupt:::, sched:::, msg:::
{
	last = timestamp;
}

END
{
	printf("%s %s\n", on > 0 && (off == on || off == on - 1) ? "switches-ok" : "switches-bad",
	    backwards == 0 ? "time-ok" : "time-bad");
	trunc(@names);
}
