#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Why did an idle CPU wake up? Over a multi-CPU capture printed in time order (traceprinter -m),
# each wake-up from idle whose thread was made ready on another CPU: CPU y runs its idle thread
# (pid 0), thread T is made READY by CPU x != y, then y runs T. An idle CPU waits for an
# interrupt (WFI), so something interrupted y between the READY and the RUNNING, and the
# capture must say what: an INT_ENTR on y in that span (a reschedule IPI, 0x102; a tick, 0x100
# or 0x101; a device line). The truth is the architecture's, not the kernel's bookkeeping: a
# CPU in WFI runs nothing until an interrupt. Prints the counts; exit 1 when a wake-up has no
# interrupt on its CPU, or (with --want-ipi N) fewer than N of them were IPIs.
#   ipi_wake_check.py CAPTURE.txt [--want-ipi N]
import re
import sys
from tp_events import events, who as who_of

path = sys.argv[1]
want_ipi = int(sys.argv[sys.argv.index('--want-ipi') + 1]) if '--want-ipi' in sys.argv else 0

running = {}        # cpu -> (pid, tid) it runs, by its last THRUNNING
idle_since = {}     # cpu -> index of the event where it went idle
ready_on = {}       # (pid, tid) -> (cpu, index) of its last THREADY
ints = {}           # cpu -> list of (index, irq) of its INT_ENTR events
wakes = no_int = by_ipi = 0
examples = []
for idx, _, cpu, cls, ev, rest in events(path):
    if cls == 'INT_ENTR':   # "INT_ENTR:0x00000102 (258) IP:...": the number after the colon
        ints.setdefault(cpu, []).append((idx, int(ev, 16) if re.match(r'0x[0-9a-f]+$', ev)
                                         else None))
        continue
    if cls != 'THREAD':
        continue
    who = who_of(rest)
    if not who:
        continue
    if ev == 'THREADY':
        ready_on[who] = (cpu, idx)
    elif ev == 'THRUNNING':
        prev = running.get(cpu)
        if who[0] == 0:
            idle_since[cpu] = idx
        elif prev is not None and prev[0] == 0 and who in ready_on:
            rcpu, ridx = ready_on[who]
            if rcpu != cpu and ridx > idle_since.get(cpu, 0):
                wakes += 1
                between = [irq for (i, irq) in ints.get(cpu, []) if ridx < i < idx]
                if not between:
                    no_int += 1
                    if len(examples) < 3:
                        examples.append('pid %d tid %d: READY on CPU %d, RUNNING on CPU %d '
                                        '(event %d), no interrupt on CPU %d between'
                                        % (who[0], who[1], rcpu, cpu, idx, cpu))
                elif 0x102 in between:
                    by_ipi += 1
        running[cpu] = who
print('%d wake-ups of an idle CPU by another CPU: %d with no interrupt recorded on the woken '
      'CPU, %d by a reschedule IPI' % (wakes, no_int, by_ipi))
for e in examples:
    print('  ' + e)
sys.exit(0 if wakes and not no_int and by_ipi >= want_ipi else 1)
