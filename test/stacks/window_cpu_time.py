#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# A program's CPU time inside the window its own user events mark, read from traceprinter's
# text of a capture (`traceprinter -n`): the truth the idle-share test holds profiles against,
# from a reader that shares no code with kevstat, dtrace or trace/. A THRUNNING of a thread
# starts its run on the event's CPU; the thread's next state event, or the next THRUNNING on
# that CPU, ends it. A run is counted where it overlaps the window: from the first USREVENT
# START to the first USREVENT STOP after it. Every number is of one CPU's time, the share
# too: one thread runs on one CPU at a time.
#   window_cpu_time.py CAPTURE.txt PROCESS START STOP
# prints "run_us window_us share_pct whole_us lost": the process's threads' running time in the
# window, the window, the one against the other, their running time over the whole capture
# (kevstat's figure), and the events the capture says it lost (its DROPPED events and its
# SLOG's count; 0: none)
import re
import sys

txt, name, ev_start, ev_stop = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
line_re = re.compile(r"^t:0x([0-9a-f]+) CPU:(\d+) (\S+)\s*:(\S+)\s*(.*)$")
hz, msb, events = None, 0, []
for line in open(txt, errors="replace"):
    m = re.match(r"\s*TRACE_CYCLES_PER_SEC:: (\d+)", line)
    if m:
        hz = int(m.group(1))
    m = line_re.match(line.rstrip("\n"))
    if not m:
        continue
    lsb, cpu, cls, ev, rest = int(m.group(1), 16), int(m.group(2)), m.group(3), m.group(4), m.group(5)
    if cls == "CONTROL" and ev == "TIME":
        mm = re.search(r"msb:0x([0-9a-f]+)", rest)
        if mm:
            msb = int(mm.group(1), 16)
    events.append(((msb << 32) | lsb, cpu, cls, ev, rest))
if not hz:
    sys.exit("window_cpu_time.py: %s has no TRACE_CYCLES_PER_SEC: not traceprinter's text" % txt)
events.sort(key=lambda e: e[0])     # the CPUs' buffers interleave in the file: time order

pids = set()
t0 = t1 = None
lost = 0
for t, cpu, cls, ev, rest in events:
    m = re.search(r"pid:(\d+) name:(\S+)", rest)
    if cls == "PROCESS" and ev.startswith("PROCCREATE_NAME") and m and m.group(2) == name:
        pids.add(int(m.group(1)))
    if cls == "USREVENT:EVENT" and ev == ev_start and t0 is None:
        t0 = t
    if cls == "USREVENT:EVENT" and ev == ev_stop and t0 is not None and t1 is None:
        t1 = t
    if cls == "CONTROL" and ev.startswith("DROPPED"):
        lost += 1
    m = re.search(r"message:(\d+) events lost", rest)
    if m:
        lost += int(m.group(1))
if not pids or t0 is None or t1 is None:
    sys.exit("window_cpu_time.py: no process %s, or no user events %s and %s after it, in %s"
             % (name, ev_start, ev_stop, txt))

running = {}    # cpu -> (pid, tid, since)
where = {}      # (pid, tid) -> cpu
inside = whole = 0


def stop(cpu, t):
    global inside, whole
    if cpu not in running:
        return
    pid, tid, since = running.pop(cpu)
    where.pop((pid, tid), None)
    if pid in pids:
        whole += t - since
        a, b = max(since, t0), min(t, t1)
        if b > a:
            inside += b - a


thread_re = re.compile(r"pid:(\d+) tid:(\d+)")
for t, cpu, cls, ev, rest in events:
    if cls != "THREAD":
        continue
    m = thread_re.search(rest)
    if not m:
        continue
    who = (int(m.group(1)), int(m.group(2)))
    if who in where:                # its state changed: its run (wherever it was) ends
        stop(where[who], t)
    if ev == "THRUNNING":
        stop(cpu, t)                # whoever ran on this CPU
        running[cpu] = (who[0], who[1], t)
        where[who] = cpu
last = events[-1][0]
for cpu in list(running):
    stop(cpu, last)


def us(c):
    return c * 1000000.0 / hz


span = t1 - t0
print("%.3f %.3f %.1f %.3f %d" % (us(inside), us(span), 100.0 * inside / span if span else -1,
                                  us(whole), lost))
