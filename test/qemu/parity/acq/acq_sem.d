/* acq's semaphore `report` per taker's priority (the supervisor 35, the logger 10): every
 * SemWait that returned with it, those that blocked first, and every SemPost. The test holds
 * the supervisor's acquisitions against acq's audits and the logger's against its reports. */
lockstat:::sem-acquire, lockstat:::sem-block, lockstat:::sem-release /pid > 3/ { @acq_sem[probename, curlwpsinfo->pr_pri] = count(); }
END { printa("@@P acq_sem c %s %d %@d\n", @acq_sem); }
