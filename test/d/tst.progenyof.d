/* progenyof(pid), as Solaris defines it: the firing process is pid or descends from it. BEGIN
 * fires in the dtrace process, which is its own progeny and its parent's ($ppid, getppid( )),
 * and descends from pid 1 and from 0 (the kernel, every process's last ancestor); no process
 * has pid -1 or 0x7fffffff (above any pid_max). */
#pragma D option quiet

BEGIN
/progenyof($pid) && progenyof($ppid) && progenyof(1) && progenyof(0) && !progenyof(-1) &&
 !progenyof(0x7fffffff)/
{
	printf("%d\n", progenyof(pid));
	exit(0);
}

BEGIN
{
	printf("progenyof is wrong: %d %d %d %d %d %d\n", progenyof($pid), progenyof($ppid),
	    progenyof(1), progenyof(0), progenyof(-1), progenyof(0x7fffffff));
	exit(1);
}
