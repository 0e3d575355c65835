#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Holds a capture's device interrupts against the rate the device was programmed at. Reads
# traceprinter's merged output (`traceprinter -m -p '%c %k %a' FILE.kev`: the project's
# decoder) on stdin. The window is two user events of the program that drove the device: START
# (word 0 the rate programmed in Hz, word 1 the kernel's line) and STOP. In that window the
# line's INT_ENTR events must number duration x rate within +-TOL, and no two may come closer
# than half a period (a second delivery of the same request comes ~1 us after the first).
#   irq_rate_check.py --start ID --stop ID --cps CYCLES_PER_SEC [--rate HZ] [--tol N] [--count N]
# --rate: the rate the caller knows the board's device runs at (checked against START's);
# --gap-tol PCT: every inter-arrival time within PCT % of the period (a paced line).
# --count: the program's own count of what it took or raised (checked against the trace's,
# within --count-tol, default 1).
# Prints TAP lines from --tap-base+1 on; exit 0 whether or not they pass (the TAP says).
import argparse
import re
import sys

sys.dont_write_bytecode = True     # no __pycache__ beside the sources
from tap_lines import Tap  # noqa: E402

ap = argparse.ArgumentParser(description='Holds a capture\'s device interrupts against the programmed rate.')
ap.add_argument('--start', type=int, required=True)
ap.add_argument('--stop', type=int, required=True)
ap.add_argument('--cps', type=int, required=True, help="the trace's cycles per second")
ap.add_argument('--rate', type=int, help='the rate the device is known to run at (Hz)')
ap.add_argument('--tol', type=int, default=2)
ap.add_argument('--tap-base', type=int, default=0)
ap.add_argument('--label', default='')
ap.add_argument('--count', type=int, help="the program's own count of the interrupts it took")
ap.add_argument('--gap-tol', type=float, help='every inter-arrival time within this many percent '
                'of the period (a line paced by a timer: no jitter beyond it)')
ap.add_argument('--count-tol', type=int, default=1, help='how far the trace\'s count may be from '
                '--count (default 1; 0: equal)')
ap.add_argument('--device', help="REQUESTS,EDGES: the device model's own record (QEMU's trace of "
                "the line): requests it raised, and rising edges the controller saw (fewer when "
                "a request came while the line was still high)")
a = ap.parse_args()

ev = re.compile(r'^(\d+) USREVENT:EVENT:(\d+)\s*, d0:0x([0-9a-f]+) d1:0x([0-9a-f]+)')
ent = re.compile(r'^(\d+) INT_ENTR:0x([0-9a-f]+) ')
t0 = t1 = None
rate = line = None
ints = []
for s in sys.stdin:
    m = ev.match(s)
    if m:
        c, i = int(m.group(1)), int(m.group(2))
        if i == a.start and t0 is None:
            t0, rate, line = c, int(m.group(3), 16), int(m.group(4), 16)
        elif i == a.stop and t0 is not None and t1 is None:
            t1 = c
        continue
    m = ent.match(s)
    if m:
        ints.append((int(m.group(1)), int(m.group(2), 16)))

ok = Tap(a.tap_base, a.label).ok


ok(t0 is not None and t1 is not None, 'the capture holds the START and STOP user events')
if t0 is None or t1 is None:
    sys.exit(0)
if a.rate is not None:
    ok(rate == a.rate, 'the program programmed the device at %d Hz (the board\'s device: %d Hz)'
       % (rate, a.rate))
arr = [c for c, l in ints if l == line and t0 <= c <= t1]
dur = (t1 - t0) / a.cps
want = dur * rate
if a.device:
    req, edges = (int(x) for x in a.device.split(','))
    ok(abs(req - want) <= a.tol, 'the device raised %d requests in %.1f ms at %d Hz: %.1f expected '
       '(+-%d; QEMU\'s trace of the line)' % (req, dur * 1e3, rate, want, a.tol))
    ok(len(arr) == edges, '%d interrupts on line %d, one per rising edge of the line (%d; %d '
       'requests came while it was still high)' % (len(arr), line, edges, req - edges))
else:
    ok(abs(len(arr) - want) <= a.tol,
       '%d interrupts on line %d in %.1f ms at %d Hz: %.1f expected (+-%d)'
       % (len(arr), line, dur * 1e3, rate, want, a.tol))
if a.count is not None:
    ok(abs(a.count - len(arr)) <= a.count_tol, "the program's own count (%d) is the trace's (%d), "
       "+-%d" % (a.count, len(arr), a.count_tol))
period = a.cps / rate
gaps = [b - x for x, b in zip(arr, arr[1:])]
mn = min(gaps) if gaps else 0
ok(len(gaps) > 0 and mn >= period / 2,
   'no two arrivals closer than half a period (closest %.1f us, period %.1f us)'
   % (mn * 1e6 / a.cps, period * 1e6 / a.cps))
if gaps and not a.device:
    mx = max(gaps)
    ok(mx <= 2 * period, 'no period without its interrupt (widest gap %.1f us)' % (mx * 1e6 / a.cps))
if gaps and a.gap_tol is not None:
    lo, hi = min(gaps), max(gaps)
    ok(abs(lo - period) <= period * a.gap_tol / 100 and abs(hi - period) <= period * a.gap_tol / 100,
       'every inter-arrival time within %g%% of the period (%.1f-%.1f us, period %.1f us)'
       % (a.gap_tol, lo * 1e6 / a.cps, hi * 1e6 / a.cps, period * 1e6 / a.cps))
