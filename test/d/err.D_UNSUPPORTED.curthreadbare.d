/* curthread alone is a kthread_t pointer, which this kernel has not */
BEGIN
{
	trace(curthread);
}
