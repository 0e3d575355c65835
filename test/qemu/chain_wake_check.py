#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The wait chains' waking time (kevstat --json's chains: of each waiter's time attributed to a
# root, the root woken and not yet running, its CPU idle or less urgent) against the capture's
# own events as traceprinter prints them (merged, -m): for each (waiter, root) with waking
# time, the root's wake-ups across CPUs (a READY written on one CPU, the root's next RUNNING on
# another after that CPU took a reschedule IPI, INT_ENTR 0x102), while that CPU still ran its
# idle thread (a more urgent thread run there first preempted the root: not waking), inside the
# waiter's mutex waits (its THMUTEX to its next READY or RUNNING) add up to the time named,
# within 1 % and 2 cycles a wake-up. Prints a line a pair, one of counts, then any not so.
# usage: chain_wake_check.py KEVSTAT.json TRACEPRINTER_M.txt
import json
import re
import sys

ks = json.load(open(sys.argv[1]))
who = {t["name"]: "pid:%d tid:%d" % (t["pid"], t["tid"]) for t in ks["threads"]}
events = []
for line in open(sys.argv[2]):
    m = re.match(r"t:0x([0-9a-f]+) CPU:(\d+) (\S+)\s*:(\S+)\s*(.*)", line)
    if m:
        events.append((int(m.group(1), 16), int(m.group(2)), m.group(3), m.group(4), m.group(5)))
ipis = [(e[0], e[1]) for e in events if e[2] == "INT_ENTR" and e[3].startswith("0x00000102")]
# each CPU's runs: (from, the thread's "pid:P tid:T"), in time order
runs = {}
for e in events:
    if e[2] == "THREAD" and e[3] == "THRUNNING":
        m = re.match(r"(pid:\d+ tid:\d+)", e[4])
        runs.setdefault(e[1], []).append((e[0], m.group(1) if m else "?"))


def idle_in(cpu, a, b):
    """Cycles of [a, b) in which cpu ran an idle thread (process 0's)."""
    v, total = runs.get(cpu, []), 0
    for i, (t, w) in enumerate(v):
        end = v[i + 1][0] if i + 1 < len(v) else b
        if w.startswith("pid:0 ") and min(end, b) > max(t, a):
            total += min(end, b) - max(t, a)
    return total


def mine(e, w):
    return e[2] == "THREAD" and w + " " in e[4] + " "


def mutex_waits(w):
    out, t0 = [], None
    for e in events:
        if not mine(e, w):
            continue
        if e[3] == "THMUTEX":
            t0 = e[0]
        elif e[3] in ("THREADY", "THRUNNING") and t0 is not None:
            out.append((t0, e[0]))
            t0 = None
    return out


def wakeups(w):
    out, ready = [], None
    for e in events:
        if not mine(e, w):
            continue
        if e[3] == "THREADY":
            ready = e
        elif e[3] == "THRUNNING" and ready:
            if ready[1] != e[1] and any(c == e[1] and ready[0] <= t <= e[0] for t, c in ipis):
                out.append((ready[0], e[0], e[1]))
            ready = None
    return out


pairs, bad = 0, []
for x in (ks.get("chains") or {}).get("waiters", []):
    for r in x["roots"]:
        if not r.get("waking"):
            continue
        pairs += 1
        ws, wk = mutex_waits(who.get(x["waiter"], "?")), wakeups(who.get(r["thread"], "?"))
        got = n = 0
        for a, b in ws:
            for c, d, cpu in wk:
                if min(b, d) > max(a, c):
                    got, n = got + idle_in(cpu, max(a, c), min(b, d)), n + 1
        if not n or abs(got - r["waking"]) > max(0.01 * r["waking"], 2 * n):
            bad.append((x["waiter"], r["thread"], r["waking"], got, n))
        else:
            print("%s waited on %s: waking %d cycles, the events' %d wake-ups %d cycles"
                  % (x["waiter"], r["thread"], r["waking"], n, got))
print("%d of %d (waiter, root) pairs with waking time are their roots' cross-CPU wake-ups in the "
      "capture's events" % (pairs - len(bad), pairs))
for b in bad[:5]:
    print("  not so (waiter, root, waking, the events' wake-ups' cycles, how many):", b)
sys.exit(0 if pairs and not bad else 1)
