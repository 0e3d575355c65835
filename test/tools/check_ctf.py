#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Checks kev2ctf's output by the rules Trace Compass's Linux kernel analysis reads an LTTng
# kernel trace with (org.eclipse.tracecompass.analysis.os.linux.core, KernelStateProvider and
# its handlers; LttngEventLayout), from babeltrace2's text output:
#   - idle is tid 0: a CPU whose current thread is tid 0 is idle (Resources, CPU Usage);
#     the idle thread ("swapper", process 0) has tid 0 in every event and prio 20;
#   - a process's pid is its main thread's tid (StateDumpHandler / ProcessForkHandler attach
#     a thread to process `pid` only when tid != pid): every pid != 0 is some thread's tid;
#   - statedump: type 0 (user thread) except process 0's, cpu = the event's CPU for a
#     running thread (status 6) and a real CPU for the others, at most one running per CPU,
#     ppid 0 or a process in the dump;
#   - priorities as LTTng writes them (kernel prio - 100: -100..-1 real-time, 20 normal);
#   - sched continuity per CPU: prev_tid is the CPU's current thread (the last next_tid);
#   - wake-ups are sched_waking (Trace Compass's LTTng 2.8+ layout) and every
#     sched_process_exit is followed by a sched_process_free for the same tid (the handler
#     that removes a thread);
# and by LTTng's analyses' (lttnganalyses' linuxautomaton): a thread is known from its state
# dump entry, its sched_process_fork or a sched_switch / sched_waking naming it, and a
# sched_pi_setprio about any other stops them; the state dump lists threads, it forks none;
# babeltrace's stream intersection (their default) keeps every event.
# usage: check_ctf.py CTFDIR [NCPU]  (prints TAP lines, no plan; exit 1 on a failure)
import re
import subprocess
import sys
from wake_target import wake_targets
from tap_check import check, exit_status

ctf = sys.argv[1]
ncpu = int(sys.argv[2]) if len(sys.argv) > 2 else 1


FIELD = re.compile(r'(\w+) = ("(?:[^"\\]|\\.)*"|-?\d+|\( "[^"]*" : container = -?\d+ \))')
LINE = re.compile(r'^\[[^\]]*\] \([^)]*\) \S+ (\w+): \{ cpu_id = (\d+) \}, \{ (.*) \}$')
out = subprocess.run(["babeltrace2", ctf], capture_output=True, text=True)
check("babeltrace2 reads it", out.returncode == 0, out.stderr[:300])
events = []
for line in out.stdout.splitlines():
    m = LINE.match(line)
    if not m:
        continue
    f = {}
    for k, v in FIELD.findall(m.group(3)):
        f[k] = v[1:-1] if v.startswith('"') else int(v) if not v.startswith("(") else v
    events.append((m.group(1), int(m.group(2)), f))

# ---- statedump ----
dump = [f for name, c, f in events if name == "lttng_statedump_process_state"]
dcpu = [c for name, c, f in events if name == "lttng_statedump_process_state"]
tids = {f["tid"] for f in dump}
pids = {f["pid"] for f in dump}
idle = [f for f in dump if f["vpid"] == 0 or f["name"] == "swapper"]
check("statedump: the idle thread is tid 0, pid 0, named swapper (%d)" % len(idle),
      all(f["tid"] == 0 and f["pid"] == 0 and f["name"] == "swapper" for f in idle),
      [f for f in idle if f["tid"] != 0][:3])
check("statedump: a process's pid is its main thread's tid",
      all(p == 0 or p in tids for p in pids), sorted(p for p in pids if p and p not in tids))
check("statedump: type 0 (user thread) for every thread of a process, 1 for process 0's",
      all(f["type"] == (1 if f["vpid"] == 0 else 0) for f in dump),
      [(f["tid"], f["type"]) for f in dump if f["type"] != (1 if f["vpid"] == 0 else 0)][:5])
run = [(f, c) for f, c in zip(dump, dcpu) if f["status"] == 6]
# The dump is written by one CPU; a running thread there is on it, the other CPUs' running
# threads (their idle threads) each on their own: one running thread per CPU.
check("statedump: a running thread's cpu is its CPU, one per CPU",
      all(f["cpu"] == c for f, c in run if f["tid"] != 0) and len({f["cpu"] for f, c in run}) == len(run),
      [(f["tid"], f["cpu"], c) for f, c in run])
check("statedump: cpu of every thread is a CPU of the trace",
      all(0 <= f["cpu"] < ncpu for f in dump), [(f["tid"], f["cpu"]) for f in dump][:5])
check("statedump: ppid is 0 or a process of the dump",
      all(f["ppid"] == 0 or f["ppid"] in pids for f in dump),
      [(f["tid"], f["ppid"]) for f in dump if f["ppid"] and f["ppid"] not in pids][:5])

# ---- scheduling ----
cur = {}
mismatch = badidle = badprio = 0
detail = None
for name, c, f in events:
    if name == "sched_switch":
        if c in cur and f["prev_tid"] != cur[c]:
            mismatch += 1
            detail = detail or (c, f, cur[c])
        cur[c] = f["next_tid"]
        for side in ("prev", "next"):
            tid, comm, prio = f[side + "_tid"], f[side + "_comm"], f[side + "_prio"]
            if (comm == "swapper") != (tid == 0):
                badidle += 1
            if (tid == 0 and prio != 20) or not (-100 <= prio <= -1 or prio == 20):
                badprio += 1
    elif name in ("sched_waking", "sched_process_fork", "sched_process_exit"):
        for k in ("tid", "child_tid"):
            if k in f and (f.get("comm", f.get("child_comm")) == "swapper") != (f[k] == 0):
                badidle += 1
        if "prio" in f and not (-100 <= f["prio"] <= -1 or f["prio"] == 20):
            badprio += 1
switches = sum(1 for e in events if e[0] == "sched_switch")
check("sched_switch: prev_tid is the CPU's current thread (%d switches, %d mismatched)"
      % (switches, mismatch), mismatch == 0, detail)
check("idle is tid 0 (swapper) and only idle is tid 0 (wrong: %d)" % badidle, badidle == 0)
check("priorities as LTTng writes them (-100..-1 real-time, 20 normal; wrong: %d)" % badprio,
      badprio == 0)
names = {e[0] for e in events}
check("wake-ups are sched_waking, no sched_wakeup", "sched_wakeup" not in names)
# target_cpu names the run queue the woken thread goes to (Trace Compass marks it runnable
# there): wake_target.py's rule.
seq = [(c, "switch", f["next_tid"], None) if name == "sched_switch" else
       (c, "waking", f["tid"], f["target_cpu"]) if name == "sched_waking" else (c, "", 0, None)
       for name, c, f in events]
badtarget, pulled, first = wake_targets(seq)
detail = first and (events[first[0]][2], "runs next on", first[1], "waker's CPU",
                    events[first[0]][1])
check("sched_waking's target_cpu is the CPU the thread runs on next, or the one it last ran on "
      "when another CPU pulled it (wrong: %d; pulled or unknown: %d)" % (badtarget, pulled),
      badtarget == 0, detail)
# ---- LTTng's analyses ----
known, unknown, dump_forks, in_dump = {0}, [], 0, False
for name, c, f in events:
    if name == "lttng_statedump_start":
        in_dump = True
    elif name == "lttng_statedump_end":
        in_dump = False
    elif name == "lttng_statedump_process_state" or name == "sched_waking":
        known.add(f["tid"])
    elif name == "sched_process_fork":
        known.add(f["child_tid"])
        dump_forks += in_dump
    elif name == "sched_switch":
        known.update((f["prev_tid"], f["next_tid"]))
    elif name == "sched_pi_setprio" and f["tid"] not in known:
        unknown.append(f["tid"])
check("sched_pi_setprio only about a thread already known (unknown: %d)" % len(unknown),
      not unknown, unknown[:5])
check("the state dump forks no thread (%d)" % dump_forks, dump_forks == 0)
inter = subprocess.run(["babeltrace2", "--stream-intersection", ctf], capture_output=True, text=True)
check("babeltrace2's stream intersection keeps every event (%d of %d)"
      % (inter.stdout.count("\n"), out.stdout.count("\n")),
      inter.returncode == 0 and inter.stdout.count("\n") == out.stdout.count("\n"),
      inter.stderr[:300])
exits = [f["tid"] for name, c, f in events if name == "sched_process_exit"]
frees = [f["tid"] for name, c, f in events if name == "sched_process_free"]
check("every sched_process_exit has its sched_process_free (%d)" % len(exits), exits == frees,
      (exits[:5], frees[:5]))
exit_status()
