/* procfs.d's lwpsinfo_t translator has no pr_cpu, so neither has curlwpsinfo */
BEGIN
{
	trace(curlwpsinfo->pr_cpu);
}
