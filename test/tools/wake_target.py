# SPDX-License-Identifier: MIT
# The importers' rule for a wake-up's run queue, shared by check_ctf.py (Trace Compass) and
# check_perfetto.py (trace processor): sched_waking's target_cpu is the CPU the woken thread
# runs on next, not the waker's; or, several CPUs, the queue it was put on, the CPU it last ran
# on, when another CPU pulled it from there before it ran (kernel/sched.c R4); for a thread the
# capture has not seen run yet, its queue is unknown, so any CPU is taken.


def wake_targets(seq):
    """seq: the converted events in time order, each (cpu, kind, tid, target): kind 'switch'
    (tid the incoming thread) or 'waking' (tid the woken thread, target its target_cpu), any
    other kind ignored. Returns (wrong, pulled, first): the wake-ups whose target breaks the
    rule; those taken as pulled or of an unknown queue; and for the last wrong one in time
    (index in seq, the CPU its thread ran on next), or None."""
    last, lastrun = {}, {}
    for i, (cpu, kind, tid, _) in enumerate(seq):
        if kind == 'switch':
            last[tid] = cpu
        elif kind == 'waking':
            lastrun[i] = last.get(tid)
    nextrun, wrong, pulled, first = {}, 0, 0, None
    for i in range(len(seq) - 1, -1, -1):
        cpu, kind, tid, target = seq[i]
        if kind == 'switch':
            nextrun[tid] = cpu
        elif kind == 'waking' and tid in nextrun and nextrun[tid] != target:
            if lastrun[i] in (target, None):
                pulled += 1
            else:
                wrong += 1
                if first is None:
                    first = (i, nextrun[tid])
    return wrong, pulled, first
