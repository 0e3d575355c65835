/* ARGS: -c client */
/*
 * dtrace -c NAME over a capture binds $target to the capture's process of that name (kevgen's
 * client is pid 4), as -c binds it to the command's process live: pid == $target selects its
 * on-cpu events alone.
 */
#pragma D option quiet

sched:::on-cpu
/pid == $target/
{
	@[execname, pid] = count();
}

END
{
	printf("target %d\n", $target);
}
