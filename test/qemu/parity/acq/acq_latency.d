/* Every device interrupt of acq's line between its START (210: arg2 the line) and STOP (211),
 * to the return of the MsgReceive of acq's acquisition thread (tid 1) that took its pulse (the
 * line stays masked until acq unmasks it after that receive: one at a time). Besides the
 * parity of live and capture, test_dprobe_parity.sh holds kevstat's interrupt-to-thread
 * latency over the same boot's capture against the live count and worst case. */
user:::event /arg0 == 210/ { acq_latency_line = arg2; acq_latency_on = 1; @acq_latency_line = max(arg2); }
user:::event /arg0 == 211/ { acq_latency_on = 0; }
interrupt:::entry /acq_latency_on && arg0 == acq_latency_line/ { acq_latency_t = timestamp; }
kercall::MsgReceive:return /acq_latency_t && execname == "acq" && tid == 1 && arg0 == 0/ { @acq_latency_n = count(); @acq_latency_max = max(timestamp - acq_latency_t); acq_latency_t = 0; }
END { printa("@@P acq_latency_line c %@d\n", @acq_latency_line); printa("@@P acq_latency_n c %@d\n", @acq_latency_n); printa("@@P acq_latency_max t %@d\n", @acq_latency_max); }
