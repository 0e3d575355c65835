/* of Solaris's kthread_t only t_cpu->cpu_disp->disp_nrunnable has a meaning here (the
 * Toolkit's oneliner reads the process's stack size, which this kernel keeps nowhere) */
sched:::on-cpu
{
	@[execname] = max(curthread->t_procp->p_stksize);
}
