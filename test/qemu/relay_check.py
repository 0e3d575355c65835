#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# The wait chains of a capture of user/apps/relay (test/qemu/test_tasks.sh) against the waits the
# program measured on its own clock (ClockCycles around its client's MsgSend and its server's
# MutexLock, each round): kevsql's blocked_by gives each round's client wait its length, the
# chain send -> server -> mutex -> holder, and the time attributed to the holder (the server's
# wait); kevstat --json's chains the client's worst wait link by link and each waiter's time by
# root; kevstat's text the same sentence. Tolerance 1.5 us: the program's clock brackets each
# kernel call, its entry before the first event and its return after the wake-up (about 1 us of
# traced kernel path on these boards). Prints "ok - ..." / "not ok - ..." lines.
#   relay_check.py KEVSTAT.json CHAINS.txt RUN_LOG KEVSQL TRACE.kev
import json, os, re, subprocess, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tasks_common import check, relay

st, txt = json.load(open(sys.argv[1])), open(sys.argv[2]).read()
log, kevsql, kev = open(sys.argv[3], errors="replace").read(), sys.argv[4], sys.argv[5]
TOL = 1.5


r = relay(log)
if not r or None in r["round"]:
    check(False, "relay printed every round and its ids")
    sys.exit(0)
cps, hz = r["cps"], st["trace"]["cycles_per_sec"]
mutex = "mutex %d" % r["mutex"]
us = lambda cyc: cyc * 1e6 / cps
rounds = [(us(s), us(c), us(w)) for s, c, w in r["round"]]       # send, client's, server's wait
held = [k for k, x in enumerate(rounds) if x[2] > 1000]
check(len(held) >= 4, "the program: %d rounds, %d of them its server waited on the holder (%s)"
      % (len(rounds), len(held), ["%.1f" % x[2] for x in rounds]))
chain = "relay/client -[reply]-> relay/server -[%s]-> relay/main" % mutex

# kevsql: each round's client wait, from its stretches
q = subprocess.run([kevsql, "--json", kev, """
SELECT b.wait_id, min(b.ts), sum(b.dur), sum(CASE WHEN rl.label = 'relay/main' THEN b.dur ELSE 0 END),
       max(CASE WHEN rl.label = 'relay/main' THEN b.chain END)
FROM blocked_by b JOIN thread_label l USING (utid) LEFT JOIN thread_label rl ON rl.utid = b.root_utid
WHERE l.label = 'relay/client' GROUP BY b.wait_id ORDER BY 2"""], capture_output=True, text=True)
waits = json.loads(q.stdout)["rows"] if q.returncode == 0 else []
check(waits, "kevsql: blocked_by has relay/client's waits", q.stderr)
bad = []
for k, (send, cw, sw) in enumerate(rounds):
    w = [x for x in waits if 0 <= x[1] / 1e3 - send < 20]        # begins just after its send
    if len(w) != 1 or abs(w[0][2] / 1e3 - cw) > TOL or abs(w[0][3] / 1e3 - sw) > TOL or \
            (k in held and w[0][4] != chain):
        bad.append((k, cw, sw, w))
check(not bad, "kevsql: each round's client wait as long as the program measured it and attributed to "
      "relay/main for as long as its server waited, through %s, within %.1f us" % (chain, TOL), bad)
q = subprocess.run([kevsql, "--json", kev, "SELECT l.label, rl.label, sum(b.dur) FROM blocked_by b "
                    "JOIN thread_label l USING (utid) JOIN thread_label rl ON rl.utid = b.root_utid "
                    "WHERE l.label LIKE 'relay/%' GROUP BY 1, 2"], capture_output=True, text=True)
by_root = {(a, b): v for a, b, v in json.loads(q.stdout)["rows"]} if q.returncode == 0 else {}

# kevstat --json: the client's worst wait link by link, each waiter's time by root
ws = {x["waiter"]: x for x in (st.get("chains") or {}).get("waiters", [])}
c, s = ws.get("relay/client"), ws.get("relay/server")
check(c and s and c["listed"] and s["listed"], "kevstat: relay/client and relay/server are listed waiters", list(ws))
if c and s:
    k = max(range(len(rounds)), key=lambda i: rounds[i][1])
    send, cw, sw = rounds[k]
    w = c["worst"]
    p = w["path"]
    ok = (abs(w["len"] * 1e6 / hz - cw) <= TOL and len(p) == 2 and
          (p[0]["how"], p[0]["to"]) == ("reply", "relay/server") and abs(p[0]["t"] * 1e6 / hz - cw) <= TOL and
          (p[1]["from"], p[1]["how"], p[1]["object"], p[1]["to"]) == ("relay/server", "mutex", mutex, "relay/main") and
          abs(p[1]["t"] * 1e6 / hz - sw) <= TOL)
    check(ok, "kevstat: relay/client's worst wait, round %d's: %.3f us, its send to relay/server, which waited "
          "%.3f us on %s held by relay/main (the program's)" % (k, cw, sw, mutex), w)
    roots = {x["thread"]: x["t"] * 1e6 / hz for x in w["roots"]}
    check(abs(roots.get("relay/main", 0) - sw) <= TOL and w["prio"] == 15,
          "kevstat: that wait attributed to relay/main for the server's %.3f us, the client at its prio 15" % sw, w)
    total = sum(x[2] for x in rounds)
    for who in (c, s):
        mine = {x["thread"]: x["t"] * 1e6 / hz for x in who["roots"]}
        check(abs(mine.get("relay/main", 0) - total) <= TOL * len(rounds) and
              abs(by_root.get((who["waiter"], "relay/main"), 0) / 1e3 - mine.get("relay/main", 0)) < 0.01,
              "%s's waits attributed to relay/main %.3f us in all (the server's waits: %.3f us), as many in "
              "kevsql" % (who["waiter"], mine.get("relay/main", 0), total), (mine, by_root))
    m = re.search(r"^  worst at ([0-9.]+) us: relay/client \(prio 15\) waited ([0-9.]+) us: its send to "
                  r"relay/server, which waited ([0-9.]+) us on %s held by relay/main; attributed to .*"
                  r"relay/main ([0-9.]+) us" % mutex, txt, re.M)
    check(m and abs(float(m.group(1)) - send) < 20 and abs(float(m.group(2)) - cw) <= TOL and
          abs(float(m.group(3)) - sw) <= TOL and abs(float(m.group(4)) - sw) <= TOL,
          "kevstat's text: the worst wait's sentence, link by link, with the program's waits", txt[-600:])
