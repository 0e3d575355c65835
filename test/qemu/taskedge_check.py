#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# The task instances of a capture of user/apps/taskedge (test/qemu/test_taskedge.sh) against what
# the program measured on its own clock and counted by its own logic, in kevstat --json, kevstat's
# text and kevsql (instance, task, task_timing, deadline_miss):
#   lossy   (a timer's pulses, LOST of them dropped by the kernel, which says so on the console):
#           one instance a job, LOST missed periods (the program's count and the console's), the
#           program's misses and the same jobs missed, every job's period (its release's distance
#           from the first in periods) the program's, every response the program's
#   exiter  (a periodic thread that returns after its last job): its last job judged up to the
#           call that leaves its loop (TimerDestroy), the rest its exit path, no job (exits 1);
#           no miss, the longest response and the last job's the program's
#   server  (released by a client's messages): event-driven, no period, no deadline, no miss; with
#           --deadline taskedge/server=DEADLINE_US the program's misses, the same requests.
# The program's release of a pulse's job is its first wake + k periods, so its responses are
# shorter than the model's by that first wake's path (the same every job: the exact mode, but for
# a buffer switch that falls in one job's path: the pool's pick, which checks the table and the
# host's words, 1.12 us on qemu-virt-a53's worst job): a response is compared after adding it,
# within 1 us (the exiter's longest, where such a switch fell: 1.5 us). Prints "ok - ..." lines.
#   taskedge_check.py KEVSTAT.json TASKS.txt RUN_LOG KEVSQL TRACE.kev KEVSTAT
import json, os, re, subprocess, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tasks_common import check

st, txt = json.load(open(sys.argv[1])), open(sys.argv[2]).read()
log = open(sys.argv[3], errors="replace").read()
kevsql, kev, kevstat = sys.argv[4], sys.argv[5], sys.argv[6]


def prog(log):
    """What taskedge printed: its jobs and summaries."""
    p = {"lossy": {}, "exiter": {}, "server": {}}
    for j, k, r, e in re.findall(r"taskedge: lossy job (\d+) period (\d+) release (\d+) end (\d+)", log):
        p["lossy"][int(j)] = (int(k), int(r), int(e))
    for j, r, e in re.findall(r"taskedge: exiter job (\d+) release (\d+) end (\d+)", log):
        p["exiter"][int(j)] = (int(r), int(e))
    for i, s, e in re.findall(r"taskedge: server req (\d+) send (\d+) end (\d+)", log):
        p["server"][int(i)] = (int(s), int(e))
    m = re.search(r"taskedge: lossy jobs (\d+) periods (\d+) lost (\d+) misses (\d+) period_us (\d+)", log)
    e = re.search(r"taskedge: exiter jobs (\d+) worst (\d+) misses (\d+)", log)
    s = re.search(r"taskedge: server reqs (\d+) deadline_us (\d+) misses (\d+)", log)
    c = re.search(r"taskedge: cps (\d+)", log)
    if not (m and e and s and c):
        return None
    p["l_jobs"], p["l_periods"], p["l_lost"], p["l_misses"], p["period_us"] = (int(x) for x in m.groups())
    p["e_jobs"], p["e_worst"], p["e_misses"] = (int(x) for x in e.groups())
    p["s_reqs"], p["deadline_us"], p["s_misses"] = (int(x) for x in s.groups())
    p["cps"] = int(c.group(1))
    return p


def rows(label, deadline=None):
    """kevsql's instances of a task, in release order: release, end, missed, lateness, exit_path."""
    args = [kevsql, "--json"] + (["--deadline", deadline] if deadline else []) + [kev,
            "SELECT i.ts, i.end_ts, i.missed, i.lateness, i.exit_path FROM instance i "
            "JOIN thread_label l USING (utid) WHERE l.label = '%s' ORDER BY i.ts" % label]
    q = subprocess.run(args, capture_output=True, text=True)
    return json.loads(q.stdout)["rows"] if q.returncode == 0 else []


def sql1(query, deadline=None):
    args = [kevsql, "--csv", "--no-header"] + (["--deadline", deadline] if deadline else []) + [kev, query]
    q = subprocess.run(args, capture_output=True, text=True)
    return q.stdout.strip() if q.returncode == 0 else "error: " + q.stderr.strip()


p = prog(log)
if not p or len(p["lossy"]) != p["l_jobs"] or len(p["exiter"]) != p["e_jobs"] or len(p["server"]) != p["s_reqs"]:
    check(False, "taskedge printed every job and its summaries")
    sys.exit(0)
cps = p["cps"]
ns = lambda cyc: cyc * 1e9 / cps
us = lambda cyc: cyc * 1e6 / cps
P = p["period_us"] * 1000
tasks = {t["thread"]: t for t in st["tasks"]["list"]}
for name in ("lossy", "exiter", "server"):
    if "taskedge/" + name not in tasks:
        check(False, "kevstat has a task taskedge/%s" % name, list(tasks))
        sys.exit(0)
# the kernel's console: a line per lost pulse, or (a kernel that writes each loss into the trace)
# one line for the timer's first
said = re.findall(r"kernel: timer pulse to pid \d+ lost.*", log)
check(len(said) == p["l_lost"] or (len(said) == 1 and "TIMER_LOST" in said[0]),
      "the program lost %d pulses by its clock, the kernel's console agrees (%d lines)" % (p["l_lost"], len(said)), said[:2])

if "timer_pulses_lost" in st["trace"]:   # a kernel that writes each loss into the trace
    check(st["trace"]["timer_pulses_lost"] == p["l_lost"], "the capture's lost timer pulses: %d (the program's %d)"
          % (st["trace"]["timer_pulses_lost"], p["l_lost"]))

# ---- lossy -----------------------------------------------------------------------------------------
L = tasks["taskedge/lossy"]
check(L["kind"] == "periodic" and L["released_by"] == "timer" and L["period_from"] == "timer",
      "kevstat: taskedge/lossy is periodic, released by its timer's pulses, its period the timer's (%s, %s, %s)"
      % (L["kind"], L["released_by"], L["period_from"]))
check(L["instances"] == p["l_jobs"] and L["ended"] == p["l_jobs"],
      "kevstat: taskedge/lossy has %d instances, %d ended (the program ran %d jobs)" % (L["instances"], L["ended"], p["l_jobs"]))
check(L["missed_periods"] == p["l_lost"], "kevstat: %d missed periods (the program lost %d pulses)" % (L["missed_periods"], p["l_lost"]))
check(L["misses"] == p["l_misses"], "kevstat: %d misses (the program counted %d)" % (L["misses"], p["l_misses"]))
check(L["period"] * 1e9 / cps == P, "kevstat: the period %.3f us (the program's %d us)" % (us(L["period"]), p["period_us"]))
r = rows("taskedge/lossy")
job = [p["lossy"][j] for j in range(p["l_jobs"])]
if len(r) != len(job):
    check(False, "kevsql: %d instance rows of taskedge/lossy (the program: %d jobs)" % (len(r), len(job)))
else:
    d0 = ns(job[0][1]) - r[0][0]            # the first wake's path: the program's release is after it
    ks = [round((x[0] - r[0][0]) / P) for x in r]
    off = max(abs((x[0] - r[0][0]) - k * P) for x, k in zip(r, ks))
    check(ks == [j[0] for j in job] and off <= 1000,
          "kevsql: each job's release is its program's period (after the stall, periods %s), within %.3f us of "
          "its multiple" % ([j[0] for j in job][9:27:4], off / 1e3), (ks, [j[0] for j in job]))
    worst = max(abs((x[1] - x[0]) - (ns(j[2] - j[1]) + d0)) for x, j in zip(r, job))
    check(0 <= d0 <= 5000 and worst <= 1000, "kevsql: every job's response the program's plus its first wake's "
          "%.3f us, within %.3f us" % (d0 / 1e3, worst / 1e3))
    mine = [j for j, (k, rel, end) in enumerate(job) if ns(end - rel) > P]
    theirs = [j for j, x in enumerate(r) if x[2] == 1]
    check(mine == theirs, "kevsql: the jobs that missed are the program's (%d: %s...)" % (len(mine), mine[:6]), (mine, theirs))
check(sql1("SELECT kind, missed_periods, misses FROM task_timing WHERE label = 'taskedge/lossy'") ==
      "periodic,%d,%d" % (p["l_lost"], p["l_misses"]),
      "kevsql's task_timing: periodic, %d missed periods, %d misses" % (p["l_lost"], p["l_misses"]),
      sql1("SELECT kind, missed_periods, misses FROM task_timing WHERE label = 'taskedge/lossy'"))

# ---- exiter ----------------------------------------------------------------------------------------
E = tasks["taskedge/exiter"]
check(E["instances"] == p["e_jobs"] and E["exits"] == 1 and E["ended"] == p["e_jobs"],
      "kevstat: taskedge/exiter has %d instances, every job ended, the last before its exit path (exits %d, %d jobs ended)"
      % (E["instances"], E["exits"], E["ended"]))
check(E["misses"] == p["e_misses"] == 0, "kevstat: taskedge/exiter missed %d (the program: %d)" % (E["misses"], p["e_misses"]))
r = rows("taskedge/exiter")
if len(r) == p["e_jobs"] + 1:
    d0 = ns(p["exiter"][0][0]) - r[0][0]
    check(r[-1][4] == 1 and r[-1][2] is None and all(x[4] == 0 and x[2] == 0 for x in r[:-1]),
          "kevsql: the last instance is the exit path (exit_path 1, not judged), the %d before it jobs, judged" % p["e_jobs"])
    lj = p["exiter"][p["e_jobs"] - 1]
    last = r[-2][1] - r[-2][0] - ns(lj[1] - lj[0]) - d0
    check(0 <= last <= 20000 and r[-1][0] == r[-2][1],
          "kevsql: the last job, judged, ends where its exit path begins, %.3f us after the program's end of it "
          "(its clock read to the call that leaves the loop)" % (last / 1e3))
    check(abs(E["response"]["max"] - p["e_worst"] - d0 * cps / 1e9) * 1e6 / cps <= 1.5 and 0 <= d0 <= 5000,
          "kevstat: the longest response %.3f us, the program's %.3f us plus its first wake's %.3f us"
          % (us(E["response"]["max"]), us(p["e_worst"]), d0 / 1e3))
    mx = sql1("SELECT max_response_ns, misses, exits FROM task_timing WHERE label = 'taskedge/exiter'")
    check(mx.split(",")[1:] == ["0", "1"] and abs(int(mx.split(",")[0]) - ns(E["response"]["max"])) <= 1,
          "kevsql's task_timing: the longest response kevstat's, no miss, one exit", mx)
else:
    check(False, "kevsql: %d instance rows of taskedge/exiter (the program: %d jobs, then its exit path)" % (len(r), p["e_jobs"]))

# ---- server ----------------------------------------------------------------------------------------
S = tasks["taskedge/server"]
check(S["kind"] == "event-driven" and S["released_by"] == "message" and S["period"] == 0 and S["deadline"] == 0
      and S["misses"] == 0 and not S["missed"],
      "kevstat: taskedge/server is event-driven (released by messages): no period, no deadline, no miss",
      {k: S[k] for k in ("kind", "released_by", "period", "deadline", "misses")})
check(S["instances"] == p["s_reqs"], "kevstat: taskedge/server has %d instances (the client sent %d)" % (S["instances"], p["s_reqs"]))
check(sql1("SELECT count(*) FROM deadline_miss WHERE label = 'taskedge/server'") == "0" and
      sql1("SELECT kind, period, deadline FROM task t JOIN thread_label l USING (utid) WHERE l.label = 'taskedge/server'")
      == "event-driven,,", "kevsql: event-driven, no period, no deadline, no deadline_miss row")
dl = "taskedge/server=%dus" % p["deadline_us"]
r = rows("taskedge/server", dl)
req = [p["server"][i] for i in range(p["s_reqs"])]
if len(r) == len(req):
    worst = max(abs((x[1] - x[0]) - ns(e - s)) for x, (s, e) in zip(r, req))
    check(worst <= 1000, "kevsql: every request's response the program's within 1 us (worst %.3f us)" % (worst / 1e3))
    mine = [i for i, (s, e) in enumerate(req) if ns(e - s) > p["deadline_us"] * 1000]
    theirs = [i for i, x in enumerate(r) if x[2] == 1]
    check(mine == theirs and len(mine) == p["s_misses"],
          "--deadline %s: kevsql misses the program's %d requests %s" % (dl, p["s_misses"], mine), theirs)
else:
    check(False, "kevsql: %d instance rows of taskedge/server (the client sent %d)" % (len(r), len(req)))
j = subprocess.run([kevstat, "--json", "--deadline", dl, kev], capture_output=True, text=True)
g = {t["thread"]: t for t in json.loads(j.stdout)["tasks"]["list"]}.get("taskedge/server", {}) if j.returncode == 0 else {}
check(g.get("misses") == p["s_misses"] and g.get("deadline_given") == 1 and g.get("kind") == "event-driven",
      "--deadline %s: kevstat misses %s (the program %d)" % (dl, g.get("misses"), p["s_misses"]))
n = sql1("SELECT count(*) FROM deadline_miss WHERE label = 'taskedge/server'", dl)
check(n == str(p["s_misses"]), "--deadline %s: kevsql's deadline_miss has %s rows (the program %d)" % (dl, n, p["s_misses"]))

# ---- kevstat's text --------------------------------------------------------------------------------
for name, kind, misses, lost in (("lossy", "periodic", p["l_misses"], p["l_lost"]), ("exiter", "periodic", 0, 0),
                                 ("server", "event-driven", 0, 0)):
    m = re.search(r"^  taskedge/%s +(\d+) .* (\d+) +\d+ +\S+  ([\w-]+) +(\d+)$" % name, txt, re.M)
    check(m and m.group(3) == kind and int(m.group(2)) == misses and int(m.group(4)) == lost,
          "kevstat's text: taskedge/%s %s, %d misses, %d missed periods" % (name, kind, misses, lost),
          m.group(0) if m else txt[:300])
check(re.search(r"taskedge/exiter: .*\n    periodic: released by timer; its timer's interval [0-9.]+ us; 1 instance ended in the thread's exit", txt),
      "kevstat's text says the exiter's last instance ended in its exit")
