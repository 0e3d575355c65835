#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# kev2perfetto's counters and thread-state slices, as protoc decoded them by Perfetto's schema
# (check_perfetto_protoc.py -c), held against traceprinter's text of the same capture: an
# independent reader of the events that shares no code with kev2perfetto's model. From
# `traceprinter -n -m -p '%c|%C|%Z|%z|%a'` (time order, 64-bit cycles) this derives:
#   * each thread's priority: the value of its "priority" counter at every PRIO_CHANGE, and at
#     every state event that prints a priority (wide mode), is the priority traceprinter prints
#     there (of several events of one thread at one time, the last one's: a counter holds one
#     value at a time), and every value the counter takes is one of those events' priority at
#     its time;
#   * each thread's state slices: a state event other than THRUNNING, THREADY, THCREATE,
#     THDESTROY begins one ("blocked: REPLY", "stopped", "dead"), the thread's next state
#     event, or its process's PROCDESTROY, ends it, or a DROPPED (events_lost: the lost ones
#     may have ended it), else the last event of the trace (trace_ended); begin and end times,
#     names, why it ended and the begin's pid and tid args are traceprinter's;
#   * the number of ready threads: a THREADY adds its thread, any other state event of it (or
#     its process's PROCDESTROY, or the START snapshot's "cpu runs" entry naming it) removes
#     it; the "ready threads" counter holds each time's count whenever it changed.
# The idle threads (process 0, or a thread named idle) have none of these, as in every view.
# usage: check_perfetto_states.py TRACEPRINTER.txt COUNTERS.jsonl   (TAP lines, no plan)
import bisect
import json
import sys
from tap_check import check, exit_status

if len(sys.argv) != 3 or sys.argv[1] in ("-h", "--help"):
    print("usage: check_perfetto_states.py TRACEPRINTER.txt COUNTERS.jsonl", file=sys.stderr)
    sys.exit(2)
tp_path, cnt_path = sys.argv[1:]

hz, events, body = None, [], False
for line in open(tp_path, errors="replace"):
    line = line.rstrip("\n")
    if line.startswith("  TRACE_CYCLES_PER_SEC::"):
        hz = int(line.split("::")[1])
    if line.startswith(" -- KERNEL EVENTS"):
        body = True
        continue
    if line.startswith(" -- SUMMARY"):
        break
    p = line.split("|", 4)
    if not body or len(p) != 5 or not p[0].isdigit():
        continue
    args = {}
    for tok in p[4].split():
        k, sep, v = tok.partition(":")
        if sep and k not in args:
            args[k] = v
    events.append((int(p[0]) * 10**9 // (hz or 10**9), p[2].strip(), p[3].strip(), args))
if not hz or not events:
    check("traceprinter's text has a clock rate and events", False, (hz, len(events)))
    exit_status()


def num(s):
    return int(s, 0)


OTHER = ("THRUNNING", "THREADY", "THCREATE", "THDESTROY")
names, prio_at, state_rows, open_state, ready, ready_at = {}, [], [], {}, set(), {}
last_t = 0


def idle(pid, tid):
    return pid == 0 or names.get((pid, tid)) == "idle"


def ltid(pid, tid):
    return pid * 1000 + tid


def end_state(key, t, why=None):
    if key in open_state:
        row = open_state.pop(key)
        row.update(end=t, why=why)
        state_rows.append(row)


def set_ready(key, t, on):
    if (key in ready) != on:
        (ready.add if on else ready.discard)(key)
        ready_at[t] = len(ready)


for t, cls, ev, a in events:
    if cls != "CONTROL":
        last_t = t
    if ev == "PROCTHREAD_NAME" and "name" in a:
        names[(num(a["pid"]), num(a["tid"]))] = a["name"]
    elif ev.startswith("TH") and "pid" in a and "tid" in a:
        key = (num(a["pid"]), num(a["tid"]))
        if idle(*key):
            continue
        end_state(key, t)
        if ev not in OTHER:
            name = "dead" if ev == "THDEAD" else "stopped" if ev == "THSTOPPED" else \
                "blocked: " + ev[2:]
            open_state[key] = {"tid": ltid(*key), "name": name, "ts": t, "pid": key[0],
                               "ptid": key[1]}
        set_ready(key, t, ev == "THREADY")
        if "priority" in a:
            prio_at.append((ltid(*key), t, num(a["priority"])))
    elif ev == "PRIO_CHANGE" and "pid" in a and "tid" in a:
        if not idle(num(a["pid"]), num(a["tid"])):
            prio_at.append((ltid(num(a["pid"]), num(a["tid"])), t, num(a["priority"])))
    elif ev in ("PROCDESTROY", "PROCDESTROY_NAME") and "pid" in a:
        pid = num(a["pid"])
        for key in [k for k in set(open_state) | ready if k[0] == pid]:
            end_state(key, t)
            set_ready(key, t, False)
    elif ev == "DROPPED":
        for key in list(open_state):
            end_state(key, t, "events_lost")
    elif ev == "SNAPSHOT" and a.get("what") == "2" and "who" in a:
        who = num(a["who"])
        if who and not idle(who >> 16, who & 0xffff):
            set_ready((who >> 16, who & 0xffff), t, False)
for key in list(open_state):
    end_state(key, last_t, "trace_ended")

rows = [json.loads(x) for x in open(cnt_path)]
counters = {}  # (track, tid) -> [(ts, value)] in time order
for r in rows:
    if r["kind"] == "counter":
        counters.setdefault((r["track"], r["tid"]), []).append((r["ts"], r["value"]))


def value_at(series, t):
    """The counter's value in effect at t: its last value at or before t."""
    i = bisect.bisect_right(series, (t, float("inf")))
    return series[i - 1][1] if i else None


# ---- priorities ----
bad, by_tid, last_at = [], {}, {}
for tid, t, p in prio_at:
    by_tid.setdefault(tid, set()).add((t, p))
    last_at[(tid, t)] = p  # (several at one time: the counter holds the last one's)
for (tid, t), p in sorted(last_at.items()):
    got = value_at(counters.get(("priority", tid), []), t)
    if got != p:
        bad.append({"tid": tid, "ts": t, "traceprinter": p, "counter": got})
invented = [(tid, ts, v) for (name, tid), s in counters.items() if name == "priority"
            for ts, v in s if (ts, v) not in by_tid.get(tid, set())]
check("priority counters: at each of %d priorities traceprinter prints (PRIO_CHANGE, wide state "
      "events) of %d threads the counter holds that value (the last one's, of several at one "
      "time)" % (len(prio_at), len(by_tid)),
      prio_at and not bad, bad[:3])
check("priority counters: each of their %d values is an event's priority at its time"
      % sum(len(s) for (n, _), s in counters.items() if n == "priority"), not invented,
      invented[:3])

# ---- thread states ----
want = sorted((x["tid"], x["ts"], x["end"], x["name"], x["why"], x["pid"], x["ptid"])
              for x in state_rows)
got = sorted((x["tid"], x["ts"], x["end"], x["name"],
              next((k for k in ("trace_ended", "events_lost") if x["end_args"].get(k) == 1), None),
              x["args"].get("pid"), x["args"].get("tid")) for x in rows if x["kind"] == "state")
kinds = {}
for x in want:
    kinds[x[3]] = kinds.get(x[3], 0) + 1
diff = sorted(set(want) ^ set(got))[:4]
check("thread-state slices: the %d traceprinter gives (%s), each from its state event to the "
      "thread's next, name, times, why it ended, pid and tid equal" % (len(want), ", ".join(
          "%s %d" % kv for kv in sorted(kinds.items()))), want == got,
      ("traceprinter only" if diff and diff[0] in want else "kev2perfetto only", diff))

# ---- ready threads ----
expect, last = [], None
for t in sorted(ready_at):
    if ready_at[t] != last and (last is not None or ready_at[t]):
        expect.append((t, ready_at[t]))
        last = ready_at[t]
series = counters.get(("ready threads", None), [])
check("ready threads: the counter's %d values are the count of READY threads at each time it "
      "changed (max %d)" % (len(series), max([v for t, v in expect] or [0])), series == expect,
      next(((i, a, b) for i, (a, b) in enumerate(zip(series, expect)) if a != b),
           (len(series), len(expect))))
exit_status()
