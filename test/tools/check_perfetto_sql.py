#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# kevsql answers queries as Perfetto's documentation and its users write them (docs/sql.md,
# "Perfetto's names"), each against the same answer computed by this file from traceprinter's
# text of the capture (`traceprinter -n`): an independent reader of the events that shares no
# code with kevsql or its analysis model. What it derives:
#   * who runs on each CPU: a THRUNNING starts a run there; the thread's next state event, or
#     the next THRUNNING on that CPU, ends it (the START snapshot's entries place the threads
#     running then: an idle thread, pid 0 tid k + 1, on CPU k; the others where their entry
#     says); process 0's threads (each CPU's idle thread, the kernel's boot thread) are
#     Perfetto's utid 0, the "swapper";
#   * each thread's state from one state event to its next, READY as "R" after a block and
#     "R+" after running (a preemption), the blocking states "S", DEAD "X";
#   * kernel calls (KER_CALL on the thread running on that CPU), interrupts (INT_ENTR), their
#     exits' ret_val, user events (USREVENT), PRIO_CHANGE, FAULT and STACK with their pid/tid,
#     processes (PROCCREATE_NAME), the first and last event.
# usage: check_perfetto_sql.py KEVSQL KEVSTAT CAPTURE.kev CAPTURE.txt   (TAP on stdout)
import json
import re
import subprocess
import sys

kevsql, kevstat, kev, txt = sys.argv[1:5]
n = fails = 0
queries = 0


def check(name, got, want):
    global n, fails
    n += 1
    if got == want:
        print("ok %d - %s" % (n, name))
    else:
        fails += 1
        print("not ok %d - %s" % (n, name))
        print("#   kevsql: %s" % str(got)[:600])
        print("#   reader: %s" % str(want)[:600])


def sql(q):
    global queries
    queries += 1
    r = subprocess.run([kevsql, "--json", kev, q], capture_output=True, text=True)
    if r.returncode:
        return "error: " + r.stderr.strip()
    out = json.loads(r.stdout)
    rows = out["rows"] if isinstance(out, dict) else out
    return [tuple(row.values()) if isinstance(row, dict) else tuple(row) for row in rows]


# ---- the reader ---------------------------------------------------------------------------------
hz = None
line_re = re.compile(r"^t:0x([0-9a-f]+) CPU:(\d+) (\S+)\s*:(\S+)\s*(.*)$")
msb = 0
last_lsb = None
events = []
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
# traceprinter prints each buffer as the file holds it; the CPUs' buffers interleave: time order
# (stable, so the START snapshot keeps its order)
events.sort(key=lambda e: e[0])


def ns(cycles):
    return cycles * 1000000000 // hz


STATE = {"THDEAD": "DEAD", "THRUNNING": "RUNNING", "THREADY": "READY", "THSTOPPED": "STOPPED",
         "THSEND": "SEND", "THRECEIVE": "RECEIVE", "THREPLY": "REPLY", "THSTACK": "STACK",
         "THWAITTHREAD": "WAITTHREAD", "THWAITPAGE": "WAITPAGE", "THSIGSUSPEND": "SIGSUSPEND",
         "THSIGWAITINFO": "SIGWAITINFO", "THNANOSLEEP": "NANOSLEEP", "THMUTEX": "MUTEX",
         "THCONDVAR": "CONDVAR", "THJOIN": "JOIN", "THINTR": "INTR", "THSEM": "SEM",
         "THWAITCTX": "WAITCTX", "THNET_SEND": "NET_SEND", "THNET_REPLY": "NET_REPLY"}


def letter(state, prev):
    if state == "RUNNING":
        return "Running"
    if state == "READY":
        return "R+" if prev == "RUNNING" else "R"
    return {"DEAD": "X", "STOPPED": "T", "WAITPAGE": "D", "STACK": "D"}.get(state, "S")


pidtid = re.compile(r"pid:(\d+) tid:(\d+)")
running = {}          # cpu -> (pid, tid, since)
where = {}            # (pid, tid) -> cpu
run_time = {}         # (pid, tid) -> ns
cpu_busy = {}         # cpu -> ns running a thread other than idle
cpu_idle = {}         # cpu -> ns running process 0's threads (Perfetto's utid 0)
cpu_p0 = {}           # (cpu, tid) -> ns process 0's thread tid ran there
runs = {}             # (pid, tid) -> count of runs
state_of = {}         # (pid, tid) -> (state, since)
state_time = {}       # (pid, tid, letter) -> ns
ready_count = {"R": 0, "R+": 0}
kcalls = {}           # call number -> entries
kcall_pid = {}        # pid -> kernel call entries
kcall_err = 0         # exits with ret_val:-1 (the whole number)
irqs = {}             # irq -> INT_ENTR count
user_events = []      # (ts, code, d0)
prio = []             # (ts, pid, tid, priority)
faults, stacks = [], []
proc_names = {}       # pid -> name
proc_of = {}          # pid -> name, for CPU time by process
kernel_build = None   # the kernel image's build id (IMAGE pid:0)
in_snap = False
unplaced = {}
first = last = None


def stop(cpu, t):
    if cpu in running:
        pid, tid, since = running.pop(cpu)
        where.pop((pid, tid), None)
        d = ns(t) - ns(since)
        run_time[(pid, tid)] = run_time.get((pid, tid), 0) + d
        if pid != 0:
            cpu_busy[cpu] = cpu_busy.get(cpu, 0) + d
        else:                            # the kernel's own threads: idle, boot
            cpu_idle[cpu] = cpu_idle.get(cpu, 0) + d
            cpu_p0[(cpu, tid)] = cpu_p0.get((cpu, tid), 0) + d


def start(cpu, pid, tid, t):
    if (pid, tid) in where:
        stop(where[(pid, tid)], t)
    stop(cpu, t)
    running[cpu] = (pid, tid, t)
    where[(pid, tid)] = cpu
    runs[(pid, tid)] = runs.get((pid, tid), 0) + 1


def enter_state(who, state, t):
    # READY after RUNNING is a preemption ("R+"), after a block a wakeup ("R"); a READY that
    # follows a READY (a requeue: a priority change) keeps the first one's letter
    if who in state_of:
        prev, since, lt = state_of[who]
        state_time[who + (lt,)] = state_time.get(who + (lt,), 0) + ns(t) - ns(since)
    else:
        prev, lt = None, None
    if state is None:
        return
    new = lt if state == "READY" and prev == "READY" else letter(state, prev)
    if state == "READY" and who[0] != 0:   # an interval per state event, as kevsql's rows
        ready_count[new] += 1
    state_of[who] = (state, t, new)


# Flows (Perfetto's flow: slice_out -> slice_in), each joining the slices open at its moment,
# a slice named here by (category, its start in ns): a thread's kernel call from its KER_CALL
# to its KER_EXIT of the same call; an interrupt from its INT_ENTR to its INT_EXIT (a handler
# run without an INT_ENTR is inside an interrupt but no slice). A message or pulse goes from
# the sender's slice at its SND (the interrupt it was sent in, else the running thread's call)
# to the receiver's call at its REC ("send", paired: a message's REC by its first word as the
# oldest SND_MESSAGE of that word, a pulse's by its first word as the oldest SND_PULSE whose
# second word it is; the receiver is the REC's pid << 16 | tid); a message then from that
# receive to its client's call at the REPLY_MESSAGE naming its first word ("reply"). A wakeup
# (a READY after a block) goes from the slice of whoever ran there (the interrupt, else that
# thread's call) to the woken thread's call ("wakeup"). Only when both slices exist.
open_call = {}        # (pid, tid) -> (call number, ns at its entry)
cpu_irq_open = {}     # cpu -> ns at INT_ENTR, or None (a handler without an entry)
snd_pending = []      # [kind, first word, second word, client, out slice]
rcv_pending = []      # [first word, client, in slice]
flows = []            # (kind, ts, out slice, in slice)
irq_handled = set()   # interrupt slices a pulse they sent was received from


def running_call(cpu):
    who = running[cpu][:2] if cpu in running else None
    return ("kcall", open_call[who][1]) if who in open_call else None


def sender_slice(cpu):
    if cpu in cpu_irq_open:
        return ("irq", cpu_irq_open[cpu]) if cpu_irq_open[cpu] is not None else None
    return running_call(cpu)


def add_flow(kind, t, a, b):
    if a is not None and b is not None:
        flows.append((kind, ns(t), a, b))


def words(rest):
    return [int(x, 16) if x.startswith("0x") else int(x) for x in re.findall(r":(0x[0-9a-f]+|\d+)", rest)]


def flow_event(t, cpu, cls, ev, rest):
    if cls == "KER_CALL" and cpu in running:
        open_call[running[cpu][:2]] = (ev.split("/")[-1], ns(t))
    elif cls == "KER_EXIT" and cpu in running:
        who = running[cpu][:2]
        if who in open_call and open_call[who][0] == ev.split("/")[-1]:
            del open_call[who]
    elif cls == "INT_ENTR":
        cpu_irq_open[cpu] = ns(t)
    elif cls == "INT_EXIT":
        cpu_irq_open.pop(cpu, None)
    elif cls.startswith("INT_HANDLER_ENTR") and cpu not in cpu_irq_open:
        cpu_irq_open[cpu] = None
    elif cls.startswith("INT_HANDLER_EXIT") and cpu_irq_open.get(cpu, 0) is None:
        del cpu_irq_open[cpu]
    elif cls == "COMM" and ev in ("SND_MESSAGE", "SND_PULSE"):
        w = words(rest)
        client = running[cpu][:2] if cpu in running and cpu not in cpu_irq_open else None
        snd_pending.append([ev, w[0], w[1], client, sender_slice(cpu)])
    elif cls == "COMM" and ev in ("REC_MESSAGE", "REC_PULSE"):
        w = words(rest)
        snd = "SND_MESSAGE" if ev == "REC_MESSAGE" else "SND_PULSE"
        for k, p in enumerate(snd_pending):
            if p[0] == snd and (p[1] if snd == "SND_MESSAGE" else p[2]) == w[0]:
                del snd_pending[k]
                if p[4] is not None and p[4][0] == "irq":
                    irq_handled.add(p[4])
                rcv = (w[1] >> 16, w[1] & 0xffff)
                into = ("kcall", open_call[rcv][1]) if rcv in open_call else None
                add_flow("send", t, p[4], into)
                if snd == "SND_MESSAGE":
                    rcv_pending.append([w[0], p[3], into])
                break
    elif cls == "COMM" and ev == "REPLY_MESSAGE":
        w = words(rest)
        for k, p in enumerate(rcv_pending):
            if p[0] == w[0]:
                del rcv_pending[k]
                into = ("kcall", open_call[p[1]][1]) if p[1] in open_call else None
                add_flow("reply", t, p[2], into)
                break
    elif cls == "THREAD" and ev == "THREADY":
        m = pidtid.search(rest)
        who = (int(m.group(1)), int(m.group(2)))
        if state_of.get(who, (None,))[0] not in ("RUNNING", "READY"):
            waker = running[cpu][:2] if cpu in running else None
            if cpu in cpu_irq_open:
                out = sender_slice(cpu)
            else:
                out = running_call(cpu) if waker is not None and waker != who else None
            add_flow("wakeup", t, out, ("kcall", open_call[who][1]) if who in open_call else None)


for t, cpu, cls, ev, rest in events:
    if cls == "CONTROL":
        continue
    if not (cls == "SYSTEM" and ev == "SNAPSHOT"):
        flow_event(t, cpu, cls, ev, rest)
    first = t if first is None else first
    last = t
    if cls == "SYSTEM" and ev == "SNAPSHOT":   # what:2 (which thread a CPU runs) cpu:N who:0x..
        f = dict(re.findall(r"(\w+):(\S+)", rest))
        what, who_w = int(f.get("what", "0"), 0), int(f.get("who", "0"), 0)
        if what == 2:
            who = (who_w >> 16, who_w & 0xffff)
            start(int(f.get("cpu", "0"), 0), who[0], who[1], unplaced.pop(who, t))
        elif what == 0:
            in_snap = True
        elif what == 1:
            in_snap = False
            for (pid, tid), since in unplaced.items():
                start(cpu, pid, tid, since)
            unplaced = {}
        continue
    if cls == "THREAD" and ev in STATE:
        m = pidtid.search(rest)
        who = (int(m.group(1)), int(m.group(2)))
        state = STATE[ev]
        enter_state(who, state, t)
        if state == "RUNNING":
            if in_snap:
                if who[0] == 0:
                    start(who[1] - 1, who[0], who[1], t)
                else:
                    unplaced[who] = t
                continue
            start(cpu, who[0], who[1], t)
        elif who in where:
            stop(where[who], t)
        continue
    if cls == "KER_CALL":
        num = int(ev.split("/")[-1])
        kcalls[num] = kcalls.get(num, 0) + 1
        if cpu in running:
            pid = running[cpu][0]
            kcall_pid[pid] = kcall_pid.get(pid, 0) + 1
    elif cls == "KER_EXIT" and re.match(r"ret_val:-1\b", rest):
        # -1 itself: ClockTime's result is the time's low word, printed as a signed number
        # that may begin -1 (ret_val:-1930779296) and is no failure
        kcall_err += 1
    elif cls == "INT_ENTR":
        irq = int(re.search(r"\((\d+)\)", ev + " " + rest).group(1))
        irqs[irq] = irqs.get(irq, 0) + 1
    elif cls.startswith("USREVENT"):
        mm = re.search(r"EVENT:(\d+)\s*, d0:0x([0-9a-f]+)", cls + ":" + ev + rest)
        if mm:
            user_events.append((ns(t), int(mm.group(1)), int(mm.group(2), 16)))
    elif cls == "SYSTEM" and ev == "PRIO_CHANGE":
        mm = re.search(r"pid:(\d+) tid:(\d+) priority:(\d+)", rest)
        prio.append((ns(t), int(mm.group(1)), int(mm.group(2)), int(mm.group(3))))
    elif cls == "SYSTEM" and ev in ("FAULT", "STACK"):
        mm = re.match(r"(\d+)/(\d+)", rest)
        (faults if ev == "FAULT" else stacks).append((ns(t), int(mm.group(1)), int(mm.group(2))))
    elif cls == "SYSTEM" and ev == "IMAGE":
        mm = re.match(r"pid:(\d+) build_id:([0-9a-f]+)", rest)
        if mm and mm.group(1) == "0" and kernel_build is None:
            kernel_build = mm.group(2)
    elif cls == "PROCESS" and ev == "PROCCREATE_NAME":
        mm = re.search(r"pid:(\d+) name:(\S+)", rest)
        proc_names[int(mm.group(1))] = mm.group(2)
for cpu in list(running):
    stop(cpu, last)
for who in list(state_of):
    enter_state(who, None, last)
ncpu = 1 + max(c for _, c, _, _, _ in events)

# ---- the queries ---------------------------------------------------------------------------------
# 1 top threads by CPU (Perfetto's docs: sched joined with thread)
got = sql("SELECT t.upid, t.tid, sum(s.dur) AS cpu FROM sched s JOIN thread t USING (utid) "
          "WHERE s.utid != 0 GROUP BY s.utid ORDER BY cpu DESC, t.upid, t.tid LIMIT 5")
want = sorted(((p, t, v) for (p, t), v in run_time.items() if p != 0 and v),
              key=lambda x: (-x[2], x[0], x[1]))[:5]
check("top 5 threads by CPU time (sched JOIN thread, utid != 0)", got, want)
# 2 per-CPU busy time
got = sql("SELECT cpu, sum(dur) FROM sched_slice WHERE utid != 0 GROUP BY cpu ORDER BY cpu")
check("per-CPU running time, utid != 0 (every CPU's idle thread is utid 0)", got,
      sorted((c, v) for c, v in cpu_busy.items() if v))
# 3 the same against kevstat's per-CPU running time
js = json.loads(subprocess.run([kevstat, "--json", kev], capture_output=True, text=True).stdout)
# kevstat's per-thread CPU time, summed over the threads utid != 0 keeps (process 0's are utid
# 0), is the whole of kevsql's per-CPU running time; kevstat's own per-CPU busy_cycles (its CPU
# sums, apart from its thread sums) are kevsql's per-CPU running time CPU by CPU, and add up to
# its thread sums to the cycle (the START snapshot's threads counted on their CPUs from their
# own THRUNNING, as this reader counts them)
kst = sum(t["cpu_cycles"] for t in js["threads"] if t["pid"] != 0)
check("kevsql's running time in all is kevstat's per-thread CPU time (threads of processes > 0)",
      [sum(v for _, v in got)], [ns(kst)])
busy = [(c, ns(v)) for c, v in enumerate(js["busy_cycles"]) if v]
check("kevstat's per-CPU busy_cycles are kevsql's per-CPU running time", busy, got)
check("kevstat's per-CPU busy_cycles add up to its per-thread CPU cycles (processes > 0)",
      [sum(js["busy_cycles"])], [kst])
# 4 utilisation over the trace's bounds
# (to 0.001 point: SQLite's round( ) and Python's may part at a half)
got = sql("SELECT cpu, round(100.0 * sum(dur) / (trace_end() - trace_start()), 3) FROM sched "
          "WHERE utid != 0 GROUP BY cpu ORDER BY cpu")
want = sorted((c, round(100.0 * v / (ns(last) - ns(first)), 3)) for c, v in cpu_busy.items() if v)
near = len(got) == len(want) and all(g[0] == w[0] and abs(g[1] - w[1]) <= 0.0011
                                     for g, w in zip(got, want))
check("per-CPU utilisation over trace_end() - trace_start(), to 0.001 point", want if near else got,
      want)
# 5 trace_bounds
check("trace_bounds: the first and last event", sql("SELECT start_ts, end_ts FROM trace_bounds"),
      [(ns(first), ns(last))])
# 6 the idle thread (utid 0): its time on each CPU
got = sql("SELECT cpu, sum(dur) FROM sched WHERE utid = 0 GROUP BY cpu ORDER BY cpu")
check("utid 0's time per CPU is process 0's threads' there (idle, boot)", got,
      sorted((c, v) for c, v in cpu_idle.items() if v))
# 7 thread 0 is the swapper
check("thread utid 0 is the swapper (tid 0, is_idle)",
      sql("SELECT tid, name, is_idle FROM thread WHERE utid = 0"), [(0, "swapper", 1)])
# 8 runs per thread
got = sql("SELECT t.upid, t.tid, count(*) FROM sched s JOIN thread t USING (utid) WHERE utid != 0 "
          "GROUP BY s.utid ORDER BY 1, 2")
check("runs per thread (count of sched slices)", got,
      sorted((p, t, k) for (p, t), k in runs.items() if p != 0))
# 9 CPU by process (sched JOIN thread JOIN process)
got = sql("SELECT p.name, sum(s.dur) FROM sched s JOIN thread t USING (utid) JOIN process p "
          "USING (upid) GROUP BY p.upid ORDER BY p.upid")
byproc = {}
for (p, t), v in run_time.items():
    if p != 0:
        byproc[p] = byproc.get(p, 0) + v
check("CPU time by process (sched JOIN thread JOIN process)", got,
      [(proc_names.get(p), v) for p, v in sorted(byproc.items())])
# 10 thread state durations by Perfetto's letters
got = sql("SELECT t.upid, t.tid, s.state, sum(s.dur) FROM thread_state s JOIN thread t USING "
          "(utid) WHERE s.utid != 0 GROUP BY s.utid, s.state ORDER BY 1, 2, 3")
check("time in each state per thread, Perfetto's letters (Running, R, R+, S, X)", got,
      sorted((p, t, lt, v) for (p, t, lt), v in state_time.items() if p != 0))
# 11 runnable after a wakeup vs after a preemption
got = sql("SELECT state, count(*) FROM thread_state WHERE utid != 0 AND state IN ('R', 'R+') "
          "GROUP BY state ORDER BY state")
check("thread_state 'R' (woken) and 'R+' (preempted) intervals", got,
      sorted((k, v) for k, v in ready_count.items() if v))
# 12 wakeup latency: the time from a wakeup to running, per thread
check("wakeup latency: each thread's time in 'R', from its wakeups to its runs",
      sql("SELECT t.upid, t.tid, sum(s.dur) FROM thread_state s JOIN thread t USING (utid) "
          "WHERE s.state = 'R' AND s.utid != 0 GROUP BY s.utid ORDER BY 1, 2"),
      sorted((p, t, v) for (p, t, lt), v in state_time.items() if lt == "R" and p != 0))
# 13 slices by name: kernel calls
got = sql("SELECT k.call, count(*) FROM slice s JOIN (SELECT DISTINCT call, name FROM kcall) k "
          "USING (name) WHERE s.cat = 'kcall' AND s.ts > trace_start() GROUP BY k.call ORDER BY 1")
check("kernel-call slices by name, per call", got,
      sorted(kcalls.items()) if isinstance(got, list) else kcalls)
# 14 interrupts by EXTRACT_ARG(arg_set_id, 'irq')
got = sql("SELECT EXTRACT_ARG(arg_set_id, 'irq'), count(*) FROM slice WHERE cat = 'irq' "
          "GROUP BY 1 ORDER BY 1")
check("interrupt slices per EXTRACT_ARG(arg_set_id, 'irq')", got, sorted(irqs.items()))
# 15 EXTRACT_ARG ret
got = sql("SELECT count(*) FROM slice WHERE cat = 'kcall' AND EXTRACT_ARG(arg_set_id, 'ret') = -1")
check("kernel calls whose EXTRACT_ARG(arg_set_id, 'ret') is -1", got, [(kcall_err,)])
# 16 args.key as Perfetto names it
got = sql("SELECT count(*) FROM args WHERE key = 'ret' AND int_value = -1")
check("args.key = 'ret' (Perfetto's key, not 'args.ret')", got, [(kcall_err,)])
# 17 kernel calls per process (thread_slice)
got = sql("SELECT upid, count(*) FROM thread_slice WHERE cat = 'kcall' AND ts > trace_start() "
          "AND utid != 0 GROUP BY upid ORDER BY upid")
check("kernel-call slices per process (thread_slice.upid)", got,
      sorted((p, k) for p, k in kcall_pid.items() if p != 0))
# 18 counters over time: user events' values on their counter tracks
got = sql("SELECT c.ts, c.value FROM counter c JOIN counter_track t ON c.track_id = t.id "
          "WHERE t.type = 'user_counter' ORDER BY c.ts")
check("user counters over time (counter JOIN counter_track)", got,
      [(ts, float(v)) for ts, _, v in user_events] if isinstance(got, list) and got and
      isinstance(got[0][1], float) else [(ts, v) for ts, _, v in user_events])
# 19 priority changes with their thread
got = sql("SELECT p.ts, t.upid, t.tid, p.priority FROM prio_change p JOIN thread t USING (utid) "
          "WHERE p.utid != 0 ORDER BY p.id")
check("prio_change JOIN thread: every change with its thread (utid filled)", got,
      [x for x in prio if x[1] != 0])
got = sql("SELECT count(*) FROM prio_change WHERE utid IS NULL")
check("prio_change: no NULL utid", got, [(0,)])
# every typed table's utid filled where the thread is known: a run, a state, a kernel call, a
# wait, a user event, a stack, a fault, a priority change and an instant are each a thread's
# (traceprinter prints each of those events with its pid and tid); a message's client unless an
# interrupt sent it, its server once it was received, an interrupt's thread once one handled it
thread_rows = ["sched_slice", "thread_state", "kcall", "wait", "user_event", "stack_sample",
               "fault", "prio_change", "instant"]
null_q = ["SELECT '%s', count(*) FROM %s WHERE utid IS NULL" % (t, t) for t in thread_rows] + [
    "SELECT 'msg client', count(*) FROM msg WHERE client_utid IS NULL AND irq IS NULL",
    "SELECT 'msg server', count(*) FROM msg WHERE server_utid IS NULL AND recv_ts IS NOT NULL",
    "SELECT 'irq', count(*) FROM irq WHERE utid IS NULL AND handled_ts IS NOT NULL"]
check("typed tables: no NULL utid where the thread is known", sql(" UNION ALL ".join(null_q)),
      [(t, 0) for t in thread_rows + ["msg client", "msg server", "irq"]])
# an interrupt whose pulse no thread received before the trace ended (a program that stopped
# receiving after its device's last interrupt) has no handling thread: how 'pulse', utid NULL
unreceived = {p[4] for p in snd_pending if p[0] == "SND_PULSE" and p[4] is not None
              and p[4][0] == "irq"} - irq_handled
check("irq: interrupts whose pulse was never received, no thread (%d)" % len(unreceived),
      sql("SELECT ts FROM irq WHERE how = 'pulse' AND handled_ts IS NULL ORDER BY ts"),
      sorted((x[1],) for x in unreceived))
# 20 faults and stacks with their thread
check("fault JOIN thread: the faulting thread",
      sql("SELECT f.ts, t.upid, t.tid FROM fault f JOIN thread t USING (utid) ORDER BY f.ts"), faults)
check("stack_sample JOIN thread: each stack's thread",
      sql("SELECT s.ts, t.upid, t.tid FROM stack_sample s JOIN thread t USING (utid) ORDER BY s.ts"),
      stacks)
# 21 processes
check("processes named (process.name)",
      sql("SELECT upid, name FROM process WHERE name IS NOT NULL AND upid != 0 ORDER BY upid"),
      sorted(proc_names.items()))
# 22 sched.ts_end
check("sched.ts_end: the last run ends with the trace", sql("SELECT max(ts_end) FROM sched"),
      [(ns(last),)])
# 23 stats
lost = [int(m.group(1)) for m in (re.match(r"lost events: (\d+)", l) for l in open(txt)) if m]
check("stats: kev_lost_events is traceprinter's lost events",
      sql("SELECT value FROM stats WHERE name = 'kev_lost_events'"), [(lost[-1] if lost else None,)])
# 24 the build: the kernel image's build id, in metadata and in the fleet's build column
check("metadata's build is the kernel image's build id",
      sql("SELECT str_value FROM metadata WHERE name = 'build'"), [(kernel_build,)])
r = subprocess.run([kevsql, "--csv", "--no-header", "SELECT 1", kev], capture_output=True, text=True)
queries += 1
check("the fleet's build column is the kernel image's build id",
      r.stdout.strip().split(",")[2:3] if r.returncode == 0 else r.stderr, [kernel_build])
# 25 flows: Perfetto's flow joined with slice on both ends, as its users write it (a slice read
# once: kevsql walks the trace for each read of a model table)
got = sql("WITH s AS MATERIALIZED (SELECT id, ts, cat FROM slice) "
          "SELECT f.kind, f.ts, so.cat, so.ts, si.cat, si.ts FROM flow f "
          "JOIN s so ON so.id = f.slice_out JOIN s si ON si.id = f.slice_in")
want = sorted((k, t, a[0], a[1], b[0], b[1]) for k, t, a, b in flows)
check("flow JOIN slice: messages' send -> receive -> reply and wakeups between the slices "
      "open then (%d flows)" % len(want), sorted(got) if isinstance(got, list) else got, want)
check("flow: Perfetto's columns (id, type, slice_out, slice_in, trace_id, arg_set_id)",
      sql("SELECT count(*), count(DISTINCT id), min(type), max(type), count(trace_id), "
          "count(arg_set_id) FROM flow"), [(len(want), len(want), "flow", "flow", 0, 0)])
print("# %d queries" % queries)
print("1..%d" % n)
sys.exit(1 if fails else 0)
