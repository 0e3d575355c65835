/* psinfo_t's pr_size is left out of DTrace's translator */
BEGIN
{
	trace(curpsinfo->pr_size);
}
