#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# kevsql's tables against truths from outside them, on one trace (test_kevsql.sh):
#   * the independent reader of the file's bytes (kev_reader.py, from docs/kev-format.md alone):
#     the count of each event kind (event), each event's thread (event.utid: the reader's running
#     thread on its CPU, or mid-switch the thread the CPU's last ONCPU named; NULL only where the
#     reader has none), the thread PRIO_CHANGE, STACK and FAULT name (prio_change, stack_sample,
#     fault), a function slice's thread (its FUNC_ENTER's), each thread's CPU time (sched_slice),
#     each CPU's idle time (cpu), the trace's first and last event (metadata);
#   * kevscen's script, when EXPECT is given ("expect" lines computed from the script itself):
#     interrupt latencies and rates (irq, irq_latency), the priority inversions with every
#     middle thread's share, the deadlock cycle and every wait (priority_inversion,
#     priority_inversion_middle, deadlock_cycle, wait), user events by name, and slice and
#     args: interrupts and their handlers, kernel calls and their errno, messages, pulses;
#   * the same answers kevstat --json gives, exactly: the tables give the model's records and
#     findings (an interrupt's latency, an inversion's time lost) turned into ns once, as the
#     checker turns kevstat's cycles.
#   check_sql.py KEVSQL KEVSTAT TRACE.kev [EXPECT]
# Prints TAP lines (no plan); exit 1 when one failed.
import json
import os
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kev_reader  # noqa: E402

kevsql, kevstat, trace = sys.argv[1:4]
expect = sys.argv[4] if len(sys.argv) > 4 else None
name = os.path.basename(trace)
n = fails = 0


def check(what, got, want):
    global n, fails
    n += 1
    good = got == want
    print("%s %d - %s: %s" % ("ok" if good else "not ok", n, name, what))
    if not good:
        fails += 1
        print("# got  %r\n# want %r" % (got, want))


def sql(q):
    out = subprocess.run([kevsql, "--json", trace, q], capture_output=True, text=True)
    if out.returncode != 0:
        print("# kevsql failed: %s" % out.stderr.strip())
        return []
    return json.loads(out.stdout)["rows"]


ind = kev_reader.analyse(open(trace, "rb").read())
hz = ind["hz"]


def ns(cycles):
    return cycles * 1000000000 // hz


st = json.loads(subprocess.run([kevstat, "--json", trace], capture_output=True, text=True).stdout)

# --- the independent reader -------------------------------------------------------------------
counts = {"%s/%d" % (c, t): k for c, t, k in sql("SELECT class, type, count(*) FROM event GROUP BY 1, 2")}
check("every event kind's count is the independent reader's (%d kinds, %d events)"
      % (len(counts), sum(counts.values())), counts, ind["counts"])
# each event's thread, by its offset in the file (the START snapshot's events aside)
rows = sql("SELECT e.offset, CASE WHEN e.utid = 0 THEN 'idle' WHEN e.utid IS NOT NULL THEN "
           "t.pid || '/' || t.tid END FROM event e LEFT JOIN thread t USING (utid)")
got = {o: w for o, w in rows if o in ind["threads"]}
bad = [(o, got.get(o), w) for o, w in sorted(ind["threads"].items()) if got.get(o, "?") != w]
known = sum(1 for w in ind["threads"].values() if w is not None)
check("each event's thread (event.utid) is the independent reader's, NULL only where it has "
      "none (%d of %d events known)" % (known, len(ind["threads"])),
      bad[:5] + (["... %d in all" % len(bad)] if len(bad) > 5 else []), [])
# the typed tables' thread is the one their event names (word 0): none NULL where it names one
for table, ev in (("prio_change", "PRIO_CHANGE"), ("stack_sample", "STACK"), ("fault", "FAULT")):
    rows = sql("SELECT x.ts, CASE WHEN x.utid = 0 THEN 'idle' WHEN x.utid IS NOT NULL THEN "
               "t.pid || '/' || t.tid END FROM %s x LEFT JOIN thread t USING (utid) ORDER BY 1, 2"
               % table)
    want = sorted([ns(t), w] for t, w in ind["named"][ev])
    if rows or want:
        check("%s: each row's thread is the one its %s event names (%d)" % (table, ev, len(want)),
              [list(r) for r in rows], want)
# a function slice's thread is its FUNC_ENTER's (fbt's in the scheduler's choice: mid-switch)
rows = sql("WITH e AS MATERIALIZED (SELECT ts, cpu, offset FROM event WHERE name = 'FUNC_ENTER') "
           "SELECT e.offset, CASE WHEN s.utid = 0 THEN 'idle' WHEN s.utid IS NOT NULL THEN "
           "t.pid || '/' || t.tid END FROM slice s JOIN e ON e.ts = s.ts AND e.cpu = s.cpu "
           "LEFT JOIN thread t ON t.utid = s.utid WHERE s.cat = 'function'")
if rows:
    bad = [(o, w, ind["threads"].get(o, "?")) for o, w in rows if ind["threads"].get(o, "?") != w]
    check("each function slice's thread is the independent reader's at its FUNC_ENTER (%d slices)"
          % len(rows), bad[:5] + (["... %d in all" % len(bad)] if len(bad) > 5 else []), [])
# utid 0 is every CPU's idle thread (Perfetto's swapper): the reader's idle threads together
cpu = {p: v for p, v in sql("SELECT CASE WHEN s.utid = 0 THEN 'idle' ELSE t.pid || '/' || t.tid "
                            "END, sum(s.dur) FROM sched_slice s JOIN thread t USING (utid) "
                            "GROUP BY s.utid HAVING sum(s.dur) > 0")}
slices = dict(sql("SELECT CASE WHEN s.utid = 0 THEN 'idle' ELSE t.pid || '/' || t.tid END, "
                  "count(*) FROM sched_slice s JOIN thread t USING (utid) GROUP BY s.utid"))
idle_keys = set(ind.get("idle_threads", []))
want = {p: ns(v) for p, v in ind["cpu"].items() if v and p not in idle_keys}
if any(ind["cpu"].get(p) for p in idle_keys):
    want["idle"] = sum(ns(ind["cpu"][p]) for p in idle_keys)
close = set(cpu) == set(want) and all(abs(cpu[p] - want[p]) <= slices[p] for p in want)
check("every thread's CPU time (sched_slice; utid 0 every idle thread) is the independent "
      "reader's, to a ns a slice", close or cpu, True if close else want)
idle = {str(c): v for c, v in sql("SELECT cpu, idle_ns FROM cpu WHERE idle_ns > 0")}
check("each CPU's idle time (cpu.idle_ns) is the independent reader's idle thread's",
      idle, {c: ns(v) for c, v in ind["idle"].items() if v})
span = sql("SELECT (SELECT int_value FROM metadata WHERE name = 'trace_start_ns'), "
           "(SELECT int_value FROM metadata WHERE name = 'trace_end_ns')")
check("the trace's first and last event (metadata)", span[0] if span else None,
      [ns(ind["span"][0]), ns(ind["span"][1])])

# --- kevstat: the same records summed ------------------------------------------------------------
kc = {}
for r in st["kernel_calls"]:   # (kevstat's rows apart, the logger's own, under the API's name)
    if r["count"] or r["errors"]:
        n = kc.setdefault(r.get("api", r["name"]), [0, 0])
        n[0], n[1] = n[0] + r["count"], n[1] + r["errors"]
got = {k: [c, e] for k, c, e in sql("SELECT name, sum(dur IS NOT NULL), sum(errno > 0) FROM kcall "
                                    "GROUP BY name HAVING sum(dur IS NOT NULL) OR sum(errno > 0)")}
check("kernel calls completed and failed per call: kevstat's", got, kc)
irq = {str(r["irq"]): [r["count"], r["latency"]["n"], ns(r["latency"]["min"]) if r["latency"]["n"] else None,
                       ns(r["latency"]["max"]) if r["latency"]["n"] else None]
       for r in st["interrupts"]}
got = {str(i): [c, m, lo, hi] for i, c, m, lo, hi in
       sql("SELECT irq, interrupts, measured, min_ns, max_ns FROM irq_latency")}
check("interrupts and their latencies (irq_latency): kevstat's", got, irq)
# kevstat divides by the line's span in cycles and prints 3 decimals; the view divides by the
# span between whole-ns stamps (each truncated, so the span is off by under 1 ns): the two agree
# to the rate times 1 ns over the span, plus kevstat's printed half of 0.001.
rates = {str(r["irq"]): (r["rate_per_s"], ns(r["last"] - r["first"]))
         for r in st["interrupts"] if r["count"] > 1}
got = {str(i): v for i, v in sql("SELECT irq, rate_per_s FROM irq_latency WHERE interrupts > 1")}
near = set(got) == set(rates) and all(
    got[i] is not None and abs(got[i] - w) <= w * 1.0 / max(span, 1) + 0.0005 + 1e-9
    for i, (w, span) in rates.items())
check("interrupt rates over the time each line was active: kevstat's, to the ns stamps' precision",
      got if not near else True, True if near else {i: w for i, (w, _) in rates.items()})
ch = sorted([r["count"], r["errors"]] for r in st["channels"])
got = sorted([c, e] for c, e in sql("SELECT messages, errors FROM msg_latency"))
check("messages and errors per channel (msg_latency): kevstat's", got, ch)
us = sorted([r["id"], r["count"]] for r in st["user_events"])
got = sorted([c, k] for c, k in sql("SELECT code, count(*) FROM user_event GROUP BY upid, code"))
check("user events per code and process: kevstat's", got, us)
w = st.get("waits") or {"inversions": [], "deadlocks": []}
inv = sorted([v["waiter"], v["object"], v["owner"], v["count"], ns(v["lost"])] for v in w["inversions"])
got = sorted(list(r) for r in sql("SELECT waiter, object, owner, waits, lost_ns FROM priority_inversion"))
check("priority inversions (waiter, object, owner, waits, time lost): kevstat -s waits'", got, inv)
dl = len(w["deadlocks"])
got = sql("SELECT count(*) FROM deadlock_cycle")
check("deadlock cycles: kevstat -s waits'", got[0][0] if got else None, dl)

# --- kevscen's script ------------------------------------------------------------------------------
if expect:
    exp = {}
    lines = []
    for line in open(expect):
        f = line.split()
        if len(f) >= 3 and f[0] == "expect":
            exp[f[1]] = f[2:]
            lines.append(f[1:])
    if "hz" in exp:
        hz = int(exp["hz"][0])
    for key, v in exp.items():
        p = key.split(".")
        if p[0] == "irq" and len(p) == 3 and p[2] in ("latency", "latency_n", "latency_min",
                                                      "latency_max", "rate", "count"):
            r = sql("SELECT interrupts, measured, min_ns, max_ns, rate_per_s FROM irq_latency "
                    "WHERE irq = %d" % int(p[1]))
            r = r[0] if r else [None] * 5
            x = int(v[0])
            if p[2] == "latency":
                check("irq %s latency: the script's %d us each" % (p[1], x), r[2:4], [x * 1000] * 2)
            elif p[2] == "latency_n":
                check("irq %s: every interrupt measured (%d)" % (p[1], x), r[1], x)
            elif p[2] == "latency_min":
                check("irq %s: shortest latency the script's %d us" % (p[1], x), r[2], x * 1000)
            elif p[2] == "latency_max":
                check("irq %s: longest latency the script's %d us" % (p[1], x), r[3], x * 1000)
            elif p[2] == "rate":
                check("irq %s: %d per second over the time it was active" % (p[1], x),
                      round(r[4] or 0, 6), float(x))
            else:
                check("irq %s: %d interrupts" % (p[1], x), r[0], x)
                r = sql("SELECT count(*) FROM slice WHERE category = 'irq' AND "
                        "EXTRACT_ARG(arg_set_id, 'irq') = %d" % int(p[1]))
                check("irq %s: %d interrupt slices (slice, args)" % (p[1], x), r, [[x]])
        # slice's parts and args against the script: handlers nested in their interrupts,
        # kernel calls that ended (one that did not: dur -1), their errno, messages, pulses
        if p[0] == "irq" and len(p) == 3 and p[2] == "handler":
            r = sql("SELECT min(h.dur), max(h.dur), min(h.depth), max(h.depth), count(*) = "
                    "sum(h.ts >= i.ts AND h.ts + h.dur <= i.ts + i.dur) FROM slice h JOIN slice i "
                    "ON h.parent_id = i.id WHERE h.category = 'irq_handler' AND "
                    "EXTRACT_ARG(i.arg_set_id, 'irq') = %d" % int(p[1]))
            check("irq %s: each handler slice the script's %s us, depth 1, inside its interrupt"
                  % (p[1], v[0]), r, [[int(v[0]) * 1000] * 2 + [1, 1, 1]])
        if p[0] == "kcall" and len(p) == 3 and p[2] in ("count", "max", "min"):
            r = sql("SELECT count(*), max(dur), min(dur) FROM slice WHERE category = 'kcall' AND "
                    "name = '%s' AND dur >= 0" % p[1])
            got = r[0][("count", "max", "min").index(p[2])] if r else None
            check("slice: %s's kernel calls that ended, %s %s (the script's)" % (p[1], p[2], v[0]),
                  got, int(v[0]) * (1 if p[2] == "count" else 1000))
        if key == "kcall.ThreadSleep.count" and "rounds" in exp:  # a sleep a round, the last
            r = sql("SELECT count(*) FROM slice WHERE name = 'ThreadSleep' AND dur = -1")
            check("slice: the last round's sleep did not end (dur -1, Perfetto's)", r,
                  [[int(exp["rounds"][0]) - int(v[0])]])
        if p[0] == "kcall" and len(p) == 3 and p[2] == "errno" and "kcall.%s.errors" % p[1] in exp:
            r = sql("SELECT count(*) FROM slice s JOIN args a USING (arg_set_id) WHERE s.name = "
                    "'%s' AND a.key = 'errno' AND a.int_value = %d AND a.value_type = 'int' AND "
                    "a.display_value = '%d'" % (p[1], int(v[0]), int(v[0])))
            n_err = int(exp["kcall.%s.errors" % p[1]][0])
            check("args: %d of %s's slices with errno %s" % (n_err, p[1], v[0]), r, [[n_err]])
        if p[0] == "msg" and len(p) == 3 and p[2] == "count":
            c, s_ = ".".join(p[1:-1]).split(">")
            r = sql("SELECT count(*) FROM slice s JOIN thread_label c USING (utid) JOIN args a "
                    "ON a.arg_set_id = s.arg_set_id AND a.key = 'server_utid' JOIN thread_label v "
                    "ON v.utid = a.int_value WHERE s.category = 'msg' AND c.label = '%s' AND "
                    "(v.label = '%s' OR v.label LIKE '%s/%%')" % (c, s_, s_))
            check("slice: %s messages from %s to %s (args server_utid)" % (v[0], c, s_),
                  r, [[int(v[0])]])
        if p[0] == "pulses":
            r = sql("SELECT count(*) FROM slice WHERE category = 'pulse' AND utid IS NULL")
            check("slice: %s pulses sent inside an interrupt (no thread)" % v[0], r, [[int(v[0])]])
    for f in lines:
        if f[0] == "inversion":       # waiter kind id owner middle lost count
            r = sql("SELECT lost_ns, waits FROM priority_inversion WHERE waiter = '%s' AND "
                    "object = '%s %s' AND owner = '%s'" % (f[1], f[2], f[3], f[4]))
            check("inversion of %s behind %s on %s %s: %s us in %s waits (the script's)"
                  % (f[1], f[4], f[2], f[3], f[6], f[7]), r, [[int(f[6]) * 1000, int(f[7])]])
        elif f[0] == "middles":       # waiter kind id m1 lost1 m2 lost2
            r = sql("SELECT middle, lost_ns FROM priority_inversion_middle WHERE waiter = '%s' "
                    "AND object = '%s %s' ORDER BY lost_ns DESC" % (f[1], f[2], f[3]))
            check("every middle thread of %s's inversion on %s %s with its share" % (f[1], f[2], f[3]),
                  r, [[f[4], int(f[5]) * 1000], [f[6], int(f[7]) * 1000]])
        elif f[0] == "deadlock":      # t text...
            r = sql("SELECT ts, cycle_text FROM deadlock_cycle")
            check("the deadlock cycle, when it closed (the script's)", r,
                  [[int(f[1]) * 1000, " ".join(f[2:])]])
        elif f[0] == "waits":
            r = sql("SELECT count(*) FROM wait")
            check("every wait (%s)" % f[1], r[0][0] if r else None, int(f[1]))
        elif f[0] == "wait":          # t who state us kind id owner
            r = sql("SELECT w.dur, w.still_waiting FROM wait w JOIN thread_label l USING (utid) "
                    "JOIN thread_label o ON o.utid = w.owner_utid WHERE w.ts = %d AND l.label = "
                    "'%s' AND w.state = '%s' AND w.object = '%s %s' AND o.label = '%s'"
                    % (int(f[1]) * 1000, f[2], f[3], f[5], f[6], f[7]))
            want = [[int(f[4]) * 1000, 0]] if f[4] != "-1" else [[r[0][0] if r else -1, 1]]
            check("%s waits from %s us on %s %s held by %s" % (f[2], f[1], f[5], f[6], f[7]), r, want)
sys.exit(1 if fails else 0)
