#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The threads READY at each thread's coming on a CPU, from traceprinter's text of a
one-CPU capture: each THREAD event sets its thread's state (THREADY ready, THRUNNING running,
any other blocked or gone); at each THRUNNING of a thread other than the one running (a
switch: sched:::on-cpu), once it is applied, the threads of processes (pid not 0: not the
idle thread) left READY are the ready queue's. A capture's opening snapshot (SNAPSHOT start to
end) gives the states without switches; with --span only the switches between a D program's
go and stop (DPROG events) count, as a board's dtrace -K fires within them. The outside truth for D's
curthread->t_cpu->cpu_disp->disp_nrunnable at sched:::on-cpu (test_dtrace_nrunnable.sh);
prints "N COUNT" per value N, by N: how many on-cpus found N ready.
usage: ready_count.py [--span] TRACEPRINTER_TEXT"""
import re
import sys


def main():
    args = sys.argv[1:]
    span = args[:1] == ["--span"]
    args = args[1:] if span else args
    if len(args) != 1 or args[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(args) == 1 else 2
    ev = re.compile(r"^t:0x[0-9a-f]+ CPU:\d+ THREAD\s*:(TH\w+)\s+pid:(\d+) tid:(\d+)")
    ready = set()   # (pid, tid) of the threads READY now
    hist, running, snapshot, live = {}, None, False, not span
    with open(args[0], errors="replace") as f:
        for line in f:
            sn = re.search(r"SYSTEM\s*:SNAPSHOT\s+what:(\d)", line)
            if sn:
                snapshot = sn.group(1) == "0"
            dp = re.search(r"SYSTEM\s*:DPROG\s+what:(\d)", line)
            if dp and span:
                live = dp.group(1) == "1"
            m = ev.match(line)
            if not m:
                continue
            what, who = m.group(1), (int(m.group(2)), int(m.group(3)))
            if what == "THREADY":
                ready.add(who)
            else:
                ready.discard(who)
            if what == "THRUNNING" and who != running and not snapshot and live:
                n = sum(1 for pid, _ in ready if pid)
                hist[n] = hist.get(n, 0) + 1
            if what == "THRUNNING":
                running = who
    for n in sorted(hist):
        print(n, hist[n])
    return 0


if __name__ == "__main__":
    sys.exit(main())
