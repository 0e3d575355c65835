#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Checks kev2json's output for a kevscen trace against the scenario's expectations.
# usage: check_json.py FILE.json EXPECT-FILE KEV-EVENTS KEV-LOST   (prints TAP lines, no plan)
import collections
import json
import sys

path, expect_path, kev_events, kev_lost = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
n = 0
fails = 0


def check(name, cond, detail=""):
    global n, fails
    n += 1
    print(("ok %d - %s" if cond else "not ok %d - %s") % (n, name))
    if not cond:
        fails += 1
        if detail:
            print("# " + str(detail))


exp = {}
for line in open(expect_path):
    p = line.split()
    if len(p) >= 3 and p[0] == "expect":
        exp[p[1]] = p[2:]
R = int(exp["rounds"][0])

try:
    doc = json.load(open(path))
    check("the JSON parses", True)
except ValueError as err:
    check("the JSON parses", False, err)
    print("1..%d" % n)
    sys.exit(1)
ev = doc["traceEvents"]
kev = [e for e in ev if e.get("cat", "").startswith("kev.")]
check("one kev.* record per .kev event (%d)" % kev_events, len(kev) == kev_events, len(kev))
check("otherData gives the event and lost counts",
      doc["otherData"]["kev_events"] == kev_events and doc["otherData"]["kev_lost"] == kev_lost,
      doc["otherData"])

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
    if e.get("cat") == "ipc":
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
sys.exit(1 if fails else 0)
