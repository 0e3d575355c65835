#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Checks kevstat --json for a kevscen trace against the scenario's known answers (the
# "expect KEY VALUE" lines kevscen computes from its own script).
# usage: check_stats.py STATS.json EXPECT-FILE   (prints TAP lines, no plan)
import json
import sys

stats = json.load(open(sys.argv[1]))
exp = {}
for line in open(sys.argv[2]):
    p = line.split()
    if len(p) >= 3 and p[0] == "expect":
        exp[p[1]] = [int(x) for x in p[2:]]
n = 0
fails = 0


def check(name, got, want):
    global n, fails
    n += 1
    good = got == want
    print(("ok %d - %s = %s" if good else "not ok %d - %s = %s") % (n, name, want))
    if not good:
        fails += 1
        print("# got %r" % (got,))


def find(lst, **kw):
    for x in lst:
        if all(x.get(k) == v for k, v in kw.items()):
            return x
    return {}


threads = stats["threads"]
for key, want in sorted(exp.items()):
    part = key.split(".")
    w = want[0]
    if part[0] == "cpu":
        check(key, find(threads, name=part[1]).get("cpu_cycles"), w)
    elif part[0] == "migrations" and len(part) > 1:
        check(key, find(threads, name=part[1]).get("migrations"), w)
    elif key == "migrations":
        check(key, stats.get("migrations"), w)
    elif part[0] == "running":
        check(key, (stats.get("busy_cycles") or [None] * 8)[int(part[1])], w)
    elif part[0] == "prio":
        check(key, find(stats["priorities"], prio=int(part[1])).get("cpu_cycles"), w)
    elif part[0] == "state":
        check(key, find(threads, name=part[1]).get("states", {}).get(part[2]), w)
    elif part[0] == "kcall":
        k = find(stats["kernel_calls"], name=part[1])
        if part[2] == "count":
            check(key, k.get("count"), w)
        elif part[2] == "errors":
            check(key, k.get("errors"), w)
        elif part[2] == "errno":
            check(key, list(k.get("errno", {}).keys()), [str(w)])
        else:
            check(key, k.get("latency", {}).get(part[2]), w)
    elif part[0] == "irq":
        q = find(stats["interrupts"], irq=int(part[1]))
        if part[2] == "count":
            check(key, q.get("count"), w)
        elif part[2] == "rate":     # over the time the source was active
            check(key + " (per second, to 1e-6)", round(q.get("rate_per_s", 0) / w, 6), 1.0)
        elif part[2].startswith("latency_"):    # latency_n, latency_min, latency_max
            check(key, q.get("latency", {}).get(part[2][len("latency_"):]), w)
        else:
            d = q.get(part[2], {})
            check(key + " (min, max, n)", (d.get("min"), d.get("max"), d.get("n")),
                  (w, w, exp["rounds"][0]))
    elif part[0] == "msg":
        client, server = part[1].split(">")
        c = find(stats["channels"], client=client, server=server, pulse=False)
        if part[2] == "count":
            check(key, c.get("count"), w)
        else:
            d = c.get("latency", {})
            check(key + " (min, max)", (d.get("min"), d.get("max")), (w, w))
    elif part[0] == "pulses":
        client, server = key[len("pulses."):].replace("_", " ").split(">")
        check(key, find(stats["channels"], client=client, server=server, pulse=True).get("count"), w)
    elif key == "cpus":
        check(key, stats["trace"]["cpus"], w)
        check("idle time on each CPU", len(stats["idle_cycles"]), w)
    elif key == "path.depth":
        check(key, (stats["worst_request"] or {}).get("depth"), w)
    elif key == "path.total":
        wr = stats["worst_request"] or {}
        check(key, wr.get("total_cycles"), w)
        segs = wr.get("path", [])
        check("critical path segments add up to the total",
              sum(s["t1"] - s["t0"] for s in segs), w)
        check("critical path goes client -> server -> driver -> server",
              [s["thread"] for s in segs if not s["waiting"]],
              ["server/main", "driver/irq", "server/main"])
    elif part[0] == "emul":     # kx_emul: the tick's gaps, the runs stalls stretched
        c = stats.get("clock") or {}
        tick, turns = c.get("tick", {}), c.get("turns") or {}
        if part[1] == "tick" and part[2] == "longest":
            lg = tick.get("longest", {})
            check(key, lg.get("t1", 0) - lg.get("t0", 0), w)
        elif part[1] == "tick":
            check(key, round(tick.get(part[2], -1)), w)
        elif part[1] == "stretched":
            check(key, turns.get("stretched", 0), w)
        elif part[1] == "tasks" and part[2] != "deadline":
            # the sampler (kevscen_emul.c), kevstat given its deadline (test_kevstat.sh)
            t = find(stats["tasks"]["list"], thread="client/main")
            check(key, t.get(part[2]), w)
        elif part[1] == "worst":
            wr = turns.get("worst") or {}
            check(key + " (CPU, run, stalled)",
                  [wr.get("cpu"), wr.get("t1", 0) - wr.get("t0", 0), wr.get("stalled")], want)
    elif key == "lost":
        check("lost events", stats["trace"]["lost"], w)
        check("lost events in the windows", sum(g["lost"] for g in stats["lost_windows"]), w)
    elif key == "burst":
        burst, t0, t1 = want
        g = stats["lost_windows"][0] if stats["lost_windows"] else {}
        check("the loss window starts inside the burst", t0 <= g.get("t0", -1) <= t1, True)
        check("the loss window ends after the burst", g.get("t1", -1) >= t1, True)
        cls = g.get("classes", {})
        check("KER_CALL dominates around the gap", max(cls, key=cls.get) if cls else None,
              "KER_CALL")
if "lost" not in exp and "cpus" not in exp and "emul.tick.period" not in exp:
    check("no loss window without losses", stats["lost_windows"], [])
sys.exit(1 if fails else 0)
