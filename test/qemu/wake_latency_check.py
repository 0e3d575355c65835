#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The wake-ups kevsql's wait_preemptor names 'waking' (a waited-on owner woken, its CPU idle or
# less urgent) against the capture's own events as traceprinter prints them (merged, -m): for
# each such row, the owner's READY inside the wait was recorded on one CPU (the waker's), its
# next RUNNING on another, and that CPU took a reschedule IPI (INT_ENTR 0x102) in between: the
# time named is a cross-CPU wake-up, the IPI and the target CPU's answer.
# usage: wake_latency_check.py TRACEPRINTER_M.txt CYCLES_PER_SEC < ROWS
#   ROWS: "pid tid ts_ns dur_ns" a line (kevsql --csv without its header, spaces for commas)
import re
import sys

events = []
for line in open(sys.argv[1]):
    m = re.match(r"t:0x([0-9a-f]+) CPU:(\d+) (\S+)\s*:(\S+)\s*(.*)", line)
    if m:
        events.append((int(m.group(1), 16), int(m.group(2)), m.group(3), m.group(4), m.group(5)))
cps = float(sys.argv[2])
rows = [l.split() for l in sys.stdin if l.strip()]
bad = []
for pid, tid, ts, dur in rows:
    t1 = (int(ts) + int(dur)) * cps / 1e9
    who = "pid:%s tid:%s" % (pid, tid)
    # its last READY before the wait ended (inside it, or before it began: woken already)
    ready = None
    for e in events:
        if e[0] > t1 + 1:
            break
        if e[3] == "THREADY" and who + " " in e[4] + " ":
            ready = e
    run = ready and next((e for e in events if e[0] >= ready[0] and e[3] == "THRUNNING"
                          and who + " " in e[4] + " "), None)
    ipi = run and any(e[1] == run[1] and ready[0] <= e[0] <= run[0] and e[2] == "INT_ENTR"
                      and e[3].startswith("0x00000102") for e in events)
    if not (ready and run and ready[1] != run[1] and ipi):
        bad.append((pid, tid, ts, ready and ready[:2], run and run[:2], bool(ipi)))
print("%d of %d wake-ups made ready on one CPU, run on another after its IPI" %
      (len(rows) - len(bad), len(rows)))
for b in bad[:5]:
    print("  not so:", b)
sys.exit(0 if rows and not bad else 1)
