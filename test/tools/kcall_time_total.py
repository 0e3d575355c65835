#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The total time threads spent in kernel calls, from traceprinter's text of a capture: each
thread's KER_CALL to its next KER_EXIT (the thread is the one the last THRUNNING on that CPU
named; before any, the capture names none, and its calls count as one unnamed thread's, as
dtrace -i counts them), in ns at the header's cycles per second. The outside truth for the D per-call time
total of test_dtrace_var64.sh and test_dtrace_selfassoc.sh; prints "TOTAL CALLS", then with
--threads a line "PID TID KER_CALLS KER_EXITS" per thread (the unnamed one as 0 0), by pid.
usage: kcall_time_total.py [--threads] TRACEPRINTER_TEXT"""
import re
import sys


def main():
    args = sys.argv[1:]
    threads = args[:1] == ["--threads"]
    args = args[1:] if threads else args
    if len(args) != 1 or args[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(args) == 1 else 2
    cps = None
    cur = {}        # CPU -> (pid, tid) running
    start = {}      # (pid, tid) -> cycles at its KER_CALL
    last = {}       # CPU -> last low word, to carry a wrap of the 32-bit stamp
    high = {}
    total = calls = 0
    per = {}        # (pid, tid) -> [KER_CALLs, KER_EXITs]
    ev = re.compile(r"^t:0x([0-9a-f]+) CPU:(\d+) (\S+)\s*:(\S+)\s*(.*)$")
    with open(args[0], errors="replace") as f:
        for line in f:
            m = re.search(r"TRACE_CYCLES_PER_SEC:: *(\d+)", line)
            if m:
                cps = int(m.group(1))
                continue
            m = ev.match(line)
            if not m:
                continue
            lo, cpu, cls, what, rest = int(m.group(1), 16), int(m.group(2)), m.group(3), \
                m.group(4), m.group(5)
            if cpu in last and lo < last[cpu]:
                high[cpu] = high.get(cpu, 0) + (1 << 32)
            last[cpu] = lo
            t = high.get(cpu, 0) + lo
            if cls == "THREAD" and what == "THRUNNING":
                p = re.search(r"pid:(\d+) tid:(\d+)", rest)
                cur[cpu] = (int(p.group(1)), int(p.group(2)))
            if cls in ("KER_CALL", "KER_EXIT"):
                per.setdefault(cur.get(cpu, (0, 0)), [0, 0])[cls == "KER_EXIT"] += 1
            if cls == "KER_CALL":
                start[cur.get(cpu)] = t
            elif cls == "KER_EXIT" and cur.get(cpu) in start:
                t0 = start.pop(cur.get(cpu))
                total += t * 10**9 // cps - t0 * 10**9 // cps
                calls += 1
    if cps is None:
        print("kcall_time_total.py: no TRACE_CYCLES_PER_SEC in the header: is this "
              "traceprinter's output?", file=sys.stderr)
        return 1
    print(total, calls)
    for (pid, tid), (n, x) in sorted(per.items()) if threads else ():
        print(pid, tid, n, x)
    return 0


if __name__ == "__main__":
    sys.exit(main())
