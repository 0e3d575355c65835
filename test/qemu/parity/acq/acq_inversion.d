/* acq's priority inversion (docs/applications.md), as a user would look for it: the supervisor
 * (35) blocked on the semaphore `report` while the hog (20) ran; the key says whether the hog
 * came on the CPU during the wait, the value counts them; the longest such wait in ns. The test
 * holds the count against acq's own "waited N times" (its waits over 100 us). */
sched:::block-sem /pid > 3 && curlwpsinfo->pr_pri == 35/ { acq_inv_waiting = 1; acq_inv_hog = 0; }
sched:::on-cpu /acq_inv_waiting && pid > 3 && curlwpsinfo->pr_pri == 20/ { acq_inv_hog = 1; }
lockstat:::sem-block /acq_inv_waiting && pid > 3 && curlwpsinfo->pr_pri == 35/ {
	@acq_inversion[acq_inv_hog] = count();
	@acq_inversion_max[acq_inv_hog] = max(arg1);
	acq_inv_waiting = 0;
}
END { printa("@@P acq_inversion c %d %@d\n", @acq_inversion); printa("@@P acq_inversion_max t %d %@d\n", @acq_inversion_max); }
