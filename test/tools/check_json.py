#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Checks kev2json's output by the rules Perfetto's JSON importer reads it with
# (src/trace_processor/importers/json/json_trace_parser.cc, importers/common/slice_tracker.cc
# and flow_tracker.cc), then a kevscen trace against the scenario's expectations.
# Importer rules, per thread track, events in time order (file order for equal times):
#   - an "E" closes the innermost open slice with its cat and name (MatchingIncomplete-
#     SliceIndex): an E nothing matches is dropped, one that matches a slice below the
#     innermost leaves the inner ones open: both are counted, as are slices still open at
#     the end;
#   - "s" and "t" bind to the topmost slice open on their track, "f" with "bp":"e" too (else
#     to the next slice that begins there): none may find its track empty
#     (flow_no_enclosing_slice); every flow has a start and a later point (no start-only
#     flows), and "bp" appears on flow ends only;
#   - one kev.* record per .kev event (derived ends carry args.derived), the loss total.
# usage: check_json.py FILE.json KEV-EVENTS KEV-LOST [EXPECT-FILE]  (TAP lines, no plan)
import collections
import json
import sys
from tap_check import check, exit_status, plan

path, kev_events, kev_lost = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
expect_path = sys.argv[4] if len(sys.argv) > 4 else None


try:
    doc = json.load(open(path))
    check("the JSON parses", True)
except ValueError as err:
    check("the JSON parses", False, err)
    plan()
    sys.exit(1)
ev = doc["traceEvents"]
kev = [e for e in ev if e.get("cat", "").startswith("kev.")
       and not e.get("args", {}).get("derived")]
check("one kev.* record per .kev event (%d)" % kev_events, len(kev) == kev_events, len(kev))
check("otherData gives the event and lost counts",
      doc["otherData"]["kev_events"] == kev_events and doc["otherData"]["kev_lost"] == kev_lost,
      doc["otherData"])
check("loss markers add up to the lost count (%d)" % kev_lost,
      sum(e["args"]["lost"] for e in ev if e.get("cat") == "loss") == kev_lost)

# ---- Perfetto's JSON importer ----
order = sorted(range(len(ev)), key=lambda i: (ev[i].get("ts", -1), i))
stacks = collections.defaultdict(list)  # track -> [[name, cat, end or None]]
unmatched = deeper = nobind = 0
flow_pts = collections.defaultdict(list)
samples = {}
maxdepth = 0


def pop_done(st, ts, zero_x):
    while st and st[-1][2] is not None and (st[-1][2] < ts or (st[-1][2] == ts and not zero_x)):
        st.pop()


for i in order:
    e = ev[i]
    ph, tr = e["ph"], (e.get("pid"), e.get("tid"))
    st = stacks[tr]
    if ph == "B" or ph == "X":
        pop_done(st, e["ts"], ph == "X" and e.get("dur", 0) == 0)
        # an X opens only while it lasts; a zero-length one until the next slice event
        st.append([e.get("name"), e.get("cat"), e["ts"] + e["dur"] if ph == "X" else None])
        maxdepth = max(maxdepth, sum(1 for x in st if x[2] is None))
    elif ph == "E":
        pop_done(st, e["ts"], False)
        k = len(st) - 1
        while k >= 0 and not (st[k][2] is None and (e.get("cat") is None or st[k][1] == e.get("cat"))
                              and (e.get("name") is None or st[k][0] == e.get("name"))):
            k -= 1
        if k < 0:
            unmatched += 1
            samples.setdefault("E", e)
        else:
            if any(x[2] is None for x in st[k + 1:]):
                deeper += 1
                samples.setdefault("deeper", e)
            del st[k:]
    elif ph in ("s", "t", "f"):
        flow_pts[(e.get("cat"), e.get("name"), e.get("id"))].append(ph)
        if (ph != "f" or e.get("bp") == "e") and not st:
            nobind += 1
            samples.setdefault("flow", e)
left = sum(1 for st in stacks.values() for x in st if x[2] is None)
check("importer: every E matches an open slice by cat and name (unmatched: %d)" % unmatched,
      unmatched == 0, samples.get("E"))
check("importer: every E closes the innermost matching slice (closing deeper ones: %d)" % deeper,
      deeper == 0, samples.get("deeper"))
check("importer: no slice left open at the end (%d; deepest nesting %d)" % (left, maxdepth),
      left == 0)
check("importer: every flow point has an enclosing slice (flow_no_enclosing_slice: %d)" % nobind,
      nobind == 0, samples.get("flow"))
only = sum(1 for p in flow_pts.values() if p == ["s"])
check("importer: no flow with only a start (%d of %d)" % (only, len(flow_pts)), only == 0)
check("importer: every flow starts with s and has a step or end",
      all(p[0] == "s" and len(p) > 1 for p in flow_pts.values()))
check("importer: bp only on flow ends", all(e["ph"] == "f" for e in ev if "bp" in e))
if expect_path is None:
    exit_status()

exp = {}
for line in open(expect_path):
    p = line.split()
    if len(p) >= 3 and p[0] == "expect":
        exp[p[1]] = p[2:]
R = int(exp["rounds"][0])

names = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev
         if e["ph"] == "M" and e["name"] == "thread_name"}
byname = {v: k for k, v in names.items()}
for t in ("client/main", "server/main", "driver/irq", "worker/main", "procnto/idle", "irq 5"):
    check("a track named %s" % t, t in byname, sorted(byname))
procs = {e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"}
check("processes are named", {"client", "server", "driver", "Interrupts", "CPUs"} <= procs, procs)

client, server, driver = byname["client/main"], byname["server/main"], byname["driver/irq"]
irq5 = byname["irq 5"]


def on(track, ph, name=None, cat=None):
    return [e for e in ev if (e["pid"], e["tid"]) == track and e["ph"] == ph
            and (name is None or e.get("name") == name) and (cat is None or e.get("cat") == cat)]


check("MsgSend slices: %d on the client, %d on the server" % (R, R),
      len(on(client, "B", "MsgSend")) == R and len(on(server, "B", "MsgSend")) == R)
check("kernel-call slices are closed", len(on(client, "E")) >= 2 * R)
check("interrupts are on their own track: %d irq 5 slices" % R, len(on(irq5, "B", "irq 5")) == R)
hb = [e["ts"] for e in on(irq5, "B", "handler")]
he = [e["ts"] for e in on(irq5, "E", cat="kev.int")]
check("handler slices last %s us" % exp["irq.5.handler"][0],
      len(hb) == R and all(abs(he[2 * i] - hb[i] - float(exp["irq.5.handler"][0])) < 1e-6
                           for i in range(R)), (hb[:2], he[:4]))

flows = collections.defaultdict(list)
for e in ev:
    if e.get("cat") == "ipc" and e["ph"] in "stf":
        flows[e["id"]].append(e)
msgs = [f for f in flows.values() if [e["ph"] for e in f] == ["s", "t", "f"]]
check("%s message flows send -> receive -> reply" % exp["flows"][0],
      len(msgs) == int(exp["flows"][0]), len(msgs))
cs = [f for f in msgs if (f[0]["pid"], f[0]["tid"]) == client]
check("client flows go to the server and back",
      len(cs) == R and all((f[1]["pid"], f[1]["tid"]) == server and
                           (f[2]["pid"], f[2]["tid"]) == client for f in cs))
lat = float(exp["msg.client/main>server.latency"][0])
check("send to reply is %g us on every client flow" % lat,
      all(abs(f[2]["ts"] - f[0]["ts"] - lat) < 1e-6 for f in cs), [f[2]["ts"] - f[0]["ts"] for f in cs[:3]])
ss = [f for f in msgs if (f[0]["pid"], f[0]["tid"]) == server]
check("server flows go to the driver", len(ss) == R and all((f[1]["pid"], f[1]["tid"]) == driver for f in ss))

cpu = [e for e in ev if e.get("cat") == "sched" and e["ph"] == "X"]
work = sum(e["dur"] for e in cpu if e["name"] == "worker/main")
check("CPU track: the worker runs %s us" % exp["cpu.worker/main"][0],
      abs(work - float(exp["cpu.worker/main"][0])) < 1e-3, work)

lost = [e for e in ev if e.get("cat") == "loss"]
if "lost" in exp:
    check("a lost-events marker for the %s dropped events" % exp["lost"][0],
          sum(e["args"]["lost"] for e in lost) == int(exp["lost"][0]) and
          all(e["s"] == "g" for e in lost), lost)
else:
    check("no lost-events marker without losses", not lost, lost)
exit_status()
