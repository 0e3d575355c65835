/* sched:::wakeup of a thread that slept on a condition variable (pr_stype SOBJ_CV: a condvar,
 * a sleep, a join), the Guide's sched example shape, with the waker's vtimestamp; and the
 * woken thread's object kind and state at every wakeup */
sched:::wakeup /demo && args[0]->pr_stype == SOBJ_CV/ { @wakeup_cv[execname, args[1]->pr_fname] = count();
    @wakeup_cv_vt[execname] = sum(vtimestamp); }
sched:::wakeup /demo/ { @wakeup_stype[args[0]->pr_stype, args[0]->pr_state] = count(); }
END { printa("@@P wakeup_cv c %s %s %@d\n", @wakeup_cv); printa("@@P wakeup_cv_vt t %s %@d\n", @wakeup_cv_vt);
    printa("@@P wakeup_stype c %d %d %@d\n", @wakeup_stype); }
