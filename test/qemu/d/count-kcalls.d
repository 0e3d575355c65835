/* Every kernel call of the demo system, counted by name. */
kercall:::entry
{
	@calls[probefunc] = count();
}
