#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The priority inversion acq claims, seen in the scheduler's own events: reads traceprinter's
# merged output (`traceprinter -m -p '%c %k %a' FILE.kev`) on stdin and finds each interval in
# which acq's supervisor thread was blocked on a semaphore (THSEM until it runs again). An
# inversion is such an interval in which the hog (a lower priority than the supervisor's) ran
# while the logger (lower still, the semaphore's holder) was preempted (THREADY). Prints the
# number of intervals, of inversions, and the longest inversion in microseconds:
#   "<intervals> <inversions> <longest_us>"
#   acq_inversion_check.py --cps CYCLES_PER_SEC
import argparse
import re
import sys

ap = argparse.ArgumentParser(description='Counts the priority inversions of acq in a capture.')
ap.add_argument('--cps', type=int, required=True, help="the trace's cycles per second")
a = ap.parse_args()

th = re.compile(r'^(\d+) THREAD\s*:(TH[A-Z]+)\s.*\(acq/(\w+)\)')
blocked_at = None
inverted = False
last = {}               # each acq thread's last state
intervals = inversions = 0
longest = 0
for s in sys.stdin:
    m = th.match(s)
    if not m:
        continue
    c, state, name = int(m.group(1)), m.group(2), m.group(3)
    last[name] = state
    if name == 'supervisor':
        if state == 'THSEM':
            blocked_at, inverted = c, False
        elif state in ('THREADY', 'THRUNNING') and blocked_at is not None:
            intervals += 1
            if inverted:
                inversions += 1
                longest = max(longest, c - blocked_at)
            blocked_at = None
    if blocked_at is not None and last.get('hog') == 'THRUNNING' and \
            last.get('logger') == 'THREADY':
        inverted = True
print(intervals, inversions, longest * 1000000 // a.cps)
