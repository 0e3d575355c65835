#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Holds a capture of the periodic image (user/apps/period) against the period the program
# programmed and the kernel's tick rate, both known here (not taken from the capture). Reads
# traceprinter's merged output (`traceprinter -m -p '%c %k %a' FILE.kev`: the project's decoder)
# on stdin. The window runs from the program's first timer expiry (SYSTEM TIMER) to its last.
# In it: the ticks (INT_ENTR 256) come at the tick period (+-1 %); each expiry wakes the program
# (its THRUNNING) within --tol-us; the program's wake-ups are --period-us apart (+- --tol-us);
# and the logger ran and buffers filled, i.e. the logger saved the trace while the program ran.
#   period_check.py --cps HZ --period-us N --tick-us N --tol-us N --periods N [--program NAME]
#                   [--logger NAME] [--tap-base N] [--label TEXT]
# Prints TAP lines from --tap-base+1 on; exit 0 whether or not they pass (the TAP says).
import argparse
import re
import sys

sys.dont_write_bytecode = True     # no __pycache__ beside the sources
from tap_lines import Tap  # noqa: E402

ap = argparse.ArgumentParser(description="Holds a periodic program's capture against its period.")
ap.add_argument('--cps', type=int, required=True, help="the trace's cycles per second")
ap.add_argument('--period-us', type=int, required=True, help='the period the program programmed')
ap.add_argument('--tick-us', type=int, required=True, help="the kernel's tick period")
ap.add_argument('--tol-us', type=int, required=True, help='how late a wake-up may be')
ap.add_argument('--periods', type=int, required=True, help='wake-ups the program takes')
ap.add_argument('--program', default='period')
ap.add_argument('--logger', default='tracelogger')
ap.add_argument('--tap-base', type=int, default=0)
ap.add_argument('--label', default='')
a = ap.parse_args()

line = re.compile(r'^(\d+) (\S+)\s*:(\S+)\s*(.*)$')
us = lambda c: c * 1e6 / a.cps
ticks, expiries, wakes, logger_runs, buffers = [], [], [], [], []
for s in sys.stdin:
    m = line.match(s)
    if not m:
        continue
    c, cls, ev, args = int(m.group(1)), m.group(2), m.group(3), m.group(4)
    if cls == 'INT_ENTR' and ev.startswith('0x00000100'):
        ticks.append(c)
    elif cls == 'SYSTEM' and ev == 'TIMER':
        expiries.append(c)
    elif cls == 'THREAD' and ev == 'THRUNNING' and '(%s/' % a.program in args:
        wakes.append(c)
    elif cls == 'THREAD' and ev == 'THRUNNING' and '(%s/' % a.logger in args:
        logger_runs.append(c)
    elif cls == 'CONTROL' and ev == 'BUFFER_END':
        buffers.append(c)

ok = Tap(a.tap_base, a.label).ok


ok(len(expiries) >= a.periods, 'the capture holds the program\'s %d timer expiries (%d)'
   % (a.periods, len(expiries)))
if not expiries:
    sys.exit(0)
t0, t1 = expiries[0], expiries[-1]
inwin = lambda xs: [x for x in xs if t0 <= x <= t1]
tk = inwin(ticks)
gaps = [us(b - x) for x, b in zip(tk, tk[1:])]
ok(gaps and all(abs(g - a.tick_us) <= a.tick_us / 100 for g in gaps),
   'ticks every %d us +-1 %%: %d ticks, %.1f .. %.1f us apart'
   % (a.tick_us, len(tk), min(gaps or [0]), max(gaps or [0])))
# Each expiry's wake-up: the program's first THRUNNING after it.
lat, w = [], 0
for e in expiries:
    while w < len(wakes) and wakes[w] < e:
        w += 1
    if w < len(wakes):
        lat.append(us(wakes[w] - e))
ok(len(lat) == len(expiries) and max(lat) <= a.tol_us,
   'every expiry wakes the program within %d us (worst %.1f us, mean %.1f us)'
   % (a.tol_us, max(lat or [0]), sum(lat) / max(len(lat), 1)))
wk = [x for x in wakes if t0 <= x]
iv = [us(b - x) for x, b in zip(wk, wk[1:])]
ok(iv and all(abs(i - a.period_us) <= a.tol_us for i in iv),
   'the program\'s wake-ups are %d us apart +-%d us (%.1f .. %.1f, mean %.1f)'
   % (a.period_us, a.tol_us, min(iv or [0]), max(iv or [0]), sum(iv) / max(len(iv), 1)))
lr, bf = inwin(logger_runs), inwin(buffers)
ok(len(lr) >= 1 and len(bf) >= 2,
   'the logger saved the trace while the program ran (%d runs, %d buffers filled)' % (len(lr), len(bf)))
