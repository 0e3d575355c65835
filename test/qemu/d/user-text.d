/* The text of ustr's string user events (user/apps/ustr), and its two-word event's words:
 * test/qemu/test_dtrace_ustr.sh runs it live on the board and over the same boot's capture. */
user:::event
/arg0 >= 200 && arg0 <= 202/
{
	printf("D %d: %s\n", arg0, copyinstr(arg1));
}

user:::event
/arg0 == 203/
{
	printf("D %d: words %d %d\n", arg0, arg1, arg2);
}
