/* ARGS: -p 3 */
/*
 * dtrace -p PID over a capture binds $target to that process of the capture (kevgen's server
 * is pid 3).
 */
#pragma D option quiet

sched:::on-cpu
/pid == $target/
{
	@[execname] = count();
}
