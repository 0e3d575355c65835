/* curpsinfo and curlwpsinfo: the process and thread firing the probe (BEGIN: the consumer's),
 * and the built-ins that are constant on this kernel */
#pragma D option quiet

BEGIN
/curpsinfo->pr_pid == pid && curpsinfo->pr_ppid == ppid && curlwpsinfo->pr_lwpid == tid &&
 curpsinfo->pr_fname == execname && curpsinfo->pr_psargs == execname/
{
	printf("ids %d %d %d %d\n", curpsinfo->pr_uid, curpsinfo->pr_gid, uid, gid);
	printf("nlwp %d state %d %c onpro %d bind %d\n", curpsinfo->pr_nlwp,
	    curlwpsinfo->pr_state, curlwpsinfo->pr_sname, curlwpsinfo->pr_onpro,
	    curlwpsinfo->pr_bindpro);
	printf("ipl %u\n", ipl);
	printf("%d %d %d %d\n", DTRACEFLT_BADADDR, DTRACEFLT_DIVZERO, DTRACEFLT_TUPOFLOW,
	    PR_MODEL_LP64);
	exit(0);
}

BEGIN
{
	printf("not the firing's process\n");
	exit(1);
}
