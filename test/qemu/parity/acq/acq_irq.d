/* acq's device interrupts between its START (210: arg1 the rate programmed, arg2 the line) and
 * STOP (211) user events, and the time between them: the test holds the count against the rate
 * over that time (and over the time acq measured itself). */
user:::event /arg0 == 210/ { acq_irq_line = arg2; acq_irq_t0 = timestamp; acq_irq_on = 1; @acq_irq_hz = max(arg1); }
interrupt:::entry /acq_irq_on && arg0 == acq_irq_line/ { @acq_irq = count(); }
user:::event /arg0 == 211/ { acq_irq_on = 0; @acq_irq_span = sum(timestamp - acq_irq_t0); }
END { printa("@@P acq_irq c %@d\n", @acq_irq); printa("@@P acq_irq_hz c %@d\n", @acq_irq_hz); printa("@@P acq_irq_span t %@d\n", @acq_irq_span); }
