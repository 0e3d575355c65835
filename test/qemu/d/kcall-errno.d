/* errno at kercall:::return: a failing call's, 0 for one that succeeded
 * (test/qemu/test_dtrace_errno.sh holds it to what kcerr says it got). */
#pragma D option quiet

BEGIN
{
	ok = 0;
	bad = 0;
}

kercall:::return
/execname == "kcerr" && errno != 0/
{
	printf("failed %s %d\n", probefunc, errno);
}

kercall:::return
/execname == "kcerr" && errno == 0/
{
	ok += (int)arg0 >= 0;
	bad += (int)arg0 < 0;
}

END
{
	printf("errno 0: %d succeeded, %d failed\n", ok, bad);
}
