/* macro variables: the dtrace process's own ids ($pid, $ppid, $pgid, $sid, $uid, $gid,
 * $euid, $egid), int constants; BEGIN fires in that process, so $pid is its pid. $pgid and
 * $sid may be 0: getsid() and getpgrp() give 0 when the leader is outside the PID namespace
 * (a container's CI runner) */
#pragma D option quiet

BEGIN
/$pid == pid && $ppid == ppid && $pgid >= 0 && $sid >= 0 && $uid >= 0 && $egid >= 0/
{
	printf("%d\n", sizeof ($pid));
	exit(0);
}

BEGIN
{
	printf("macros are not this process's\n");
	exit(1);
}
