#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Does the capture tell each thread's life as a scheduler lives it? Over a capture printed in
# time order (traceprinter -m), every thread's state events must follow the rules any
# scheduler keeps, whatever our kernel's bookkeeping:
#   R1  a thread goes on a CPU only from the ready state: the state event before a THRUNNING
#       of it is a THREADY (or there is none: its first seen, the start's snapshot);
#   R2  a thread runs on one CPU at a time: no THRUNNING of a thread whose last state event
#       was THRUNNING, on this CPU or another;
#   R3  a CPU runs its thread until it records another's THRUNNING: a thread's blocking state
#       event (SEND, RECEIVE, REPLY, MUTEX, SEM, ...) comes from the CPU it last ran on.
# A waker that records the READY event after another CPU already took the thread (its queue's
# lock let go first) breaks R1 and R2, and a capture read back would then run the thread on
# the waker's CPU, and live D and dtrace -i over the capture would disagree.
# A capture that lost events (CONTROL DROPPED) is checked on: each loss forgets every thread's
# story before it. Prints the counts; exit 1 on any violation, or when the capture has fewer
# than --min-cross THRUNNING events of the system's threads (pid > 0) whose READY another CPU
# recorded.
#   thread_states_check.py CAPTURE.txt [--min-cross N]
import re
import sys
from tp_events import events, who as who_of

path = sys.argv[1]
min_cross = int(sys.argv[sys.argv.index('--min-cross') + 1]) if '--min-cross' in sys.argv else 1
BLOCKING = {'THSEND', 'THRECEIVE', 'THREPLY', 'THMUTEX', 'THCONDVAR', 'THSEM', 'THNANOSLEEP',
            'THJOIN', 'THSTOPPED', 'THSIGWAITINFO', 'THWAITTHREAD', 'THINTR', 'THSTACK',
            'THWAITPAGE', 'THSIGSUSPEND', 'THNET_SEND', 'THNET_REPLY'}

last = {}           # (pid, tid) -> (state event, cpu, line) of its last state event
ran_on = {}         # (pid, tid) -> the CPU of its last THRUNNING
runs = cross = drops = 0
bad = {'R1': 0, 'R2': 0, 'R3': 0}
examples = []


def violation(rule, text):
    bad[rule] += 1
    if len(examples) < 6:
        examples.append('%s: %s' % (rule, text))


in_snapshot = False
for n, _, cpu, cls, ev, rest in events(path):
    if cls == 'CONTROL' and ev == 'DROPPED':   # events lost: no thread's story is whole
        last.clear()
        drops += 1
        continue
    if cls == 'SYSTEM' and ev == 'SNAPSHOT':   # the start's: 0 begins, 1 ends, 2 "CPU runs"
        f = dict(re.findall(r'(\w+):(\S+)', rest))   # what:2 (cpu runs) cpu:N who:0x...
        what, who = int(f.get('what', '0'), 0), int(f.get('who', '0'), 0)
        if what == 2:
            ran_on[(who >> 16, who & 0xffff)] = int(f.get('cpu', '0'), 0)
        elif what in (0, 1):
            in_snapshot = what == 0
        continue
    if cls != 'THREAD' or not ev.startswith('TH') or ev in ('THCREATE', 'THDESTROY'):
        continue
    who = who_of(rest)
    if not who:
        continue
    prev = last.get(who)
    if in_snapshot:             # what the start found, not a change: the state, as it is
        last[who] = (ev, cpu, n)
        continue
    if ev == 'THRUNNING':
        runs += 1
        if prev is not None and prev[0] == 'THRUNNING':
            violation('R2', 'pid %d tid %d RUNNING on CPU %d (line %d) while RUNNING on '
                      'CPU %d since line %d' % (who + (cpu, n, prev[1], prev[2])))
        elif prev is not None and prev[0] != 'THREADY':
            violation('R1', 'pid %d tid %d RUNNING on CPU %d (line %d) straight from %s '
                      '(CPU %d, line %d)' % (who + (cpu, n) + prev))
        elif prev is not None and prev[1] != cpu and who[0] > 0:
            cross += 1
        ran_on[who] = cpu
    elif ev in BLOCKING and who in ran_on and prev is not None and prev[0] == 'THRUNNING' \
            and ran_on[who] != cpu:
        violation('R3', 'pid %d tid %d %s recorded by CPU %d (line %d), running on CPU %d'
                  % (who + (ev, cpu, n, ran_on[who])))
    last[who] = (ev, cpu, n)
print('%d THRUNNING events, %d of a thread made ready on another CPU: %d R1 (run not from '
      'ready), %d R2 (on two CPUs), %d R3 (blocked by another CPU)%s'
      % (runs, cross, bad['R1'], bad['R2'], bad['R3'],
         ', %d losses (each forgets every story before it)' % drops if drops else ''))
for e in examples:
    print('  ' + e)
sys.exit(0 if cross >= min_cross and not any(bad.values()) else 1)
