#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# The task instances of a capture of user/apps/cadence (test/qemu/test_tasks.sh) against what the
# program measured on its own clock: kevstat --json's tasks (cadence/worker: one instance a job,
# as many misses as the program counted, the period it programmed, every job's response time
# within 1 us of its own), kevstat's text line, and kevsql's instance table and deadline_miss
# view (the same numbers in ns); a deadline given (--deadline cadence/worker=D, D between two of
# the program's response times) misses the jobs the program answered later than D, in kevsql and
# kevstat alike. Prints "ok - ..." / "not ok - ..." lines.
#   tasks_check.py KEVSTAT.json TASKS.txt RUN_LOG KEVSQL TRACE.kev KEVSTAT
import json, os, re, subprocess, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tasks_common import check, cadence

st, txt, log = json.load(open(sys.argv[1])), open(sys.argv[2]).read(), open(sys.argv[3], errors="replace").read()
kevsql, kev, kevstat = sys.argv[4], sys.argv[5], sys.argv[6]


c = cadence(log)
if not c or None in c["job"]:
    check(False, "cadence printed every job and its summary")
    sys.exit(0)
hz = st["trace"]["cycles_per_sec"]
us = lambda cyc: cyc * 1e6 / hz
check(c["misses"] == c["overruns"], "the program: %d overruns, %d jobs over their period" % (c["overruns"], c["misses"]))
tasks = {t["thread"]: t for t in st["tasks"]["list"]}
w = tasks.get("cadence/worker")
if not w:
    check(False, "kevstat has a task cadence/worker", list(tasks))
    sys.exit(0)
check(w["instances"] == c["jobs"] and w["ended"] == c["jobs"],
      "kevstat: cadence/worker has %d instances, %d ended (the program ran %d jobs)" % (w["instances"], w["ended"], c["jobs"]))
check(w["misses"] == c["misses"], "kevstat: %d misses (the program counted %d)" % (w["misses"], c["misses"]))
check(abs(us(w["period"]) - c["period_us"]) <= 1 and not w["period_given"],
      "kevstat: the period inferred from the releases, %.3f us (the program programmed %d us)" % (us(w["period"]), c["period_us"]))
check(w["deadline"] == w["period"], "kevstat: the deadline is the period")
# every job's response time, and which missed: the program's jobs in order are the instances
q = subprocess.run([kevsql, "--json", kev, "SELECT i.ts, i.dur, i.missed, i.lateness, i.period, i.exec_dur FROM instance i "
                    "JOIN thread_label l USING (utid) WHERE l.label = 'cadence/worker' ORDER BY i.ts"],
                   capture_output=True, text=True)
rows = json.loads(q.stdout)["rows"] if q.returncode == 0 else []
check(len(rows) == c["jobs"], "kevsql: %d instance rows of cadence/worker" % len(rows), q.stderr)
cps = c["cps"]
worst = 0.0
mine_missed, their_missed = [], []
for k, (rel, end) in enumerate(c["job"]):
    resp_us = (end - rel) * 1e6 / cps
    if (end - rel) * 1e6 / cps > c["period_us"]:
        mine_missed.append(k)
    if k < len(rows):
        worst = max(worst, abs(rows[k][1] / 1e3 - resp_us))
        if rows[k][2] == 1:
            their_missed.append(k)
check(len(rows) == c["jobs"] and worst <= 1.0,
      "kevsql: every job's response time (release to end) within 1 us of the program's (worst %.3f us)" % worst)
check(their_missed == mine_missed, "kevsql: the jobs that missed are the program's %s (%s)" % (mine_missed, their_missed))
check(all(r[4] == c["period_us"] * 1000 for r in rows) or all(abs(r[4] / 1e3 - c["period_us"]) <= 1 for r in rows),
      "kevsql: every instance's period is the program's %d us" % c["period_us"])
lat = [r[3] for r in rows if r[2] == 1]
check(all(abs(l / 1e3 - ((c["job"][k][1] - c["job"][k][0]) * 1e6 / cps - c["period_us"])) <= 1.0
          for k, l in zip(mine_missed, lat)), "kevsql: each miss's lateness within 1 us of the program's", lat)
# kevstat's own responses: the worst instance, the distribution's max
mx = max((e - r) * 1e6 / cps for r, e in c["job"])
check(abs(us(w["response"]["max"]) - mx) <= 1.0, "kevstat: the longest response %.3f us (the program's %.3f us)" % (us(w["response"]["max"]), mx))
q = subprocess.run([kevsql, "--csv", "--no-header", kev, "SELECT count(*) FROM deadline_miss WHERE label = 'cadence/worker'"],
                   capture_output=True, text=True)
check(q.stdout.strip() == str(c["misses"]), "kevsql's deadline_miss: %s rows (the program: %d)" % (q.stdout.strip(), c["misses"]))
line = re.search(r"^  cadence/worker +(\d+) +([0-9.]+) +[0-9.]+ +([0-9.]+) \(period\) +(\d+) ", txt, re.M)
check(line and int(line.group(1)) == c["jobs"] and abs(float(line.group(2)) - c["period_us"]) <= 1 and
      int(line.group(4)) == c["misses"],
      "kevstat's text: cadence/worker, %d instances, period %d us, %d misses" % (c["jobs"], c["period_us"], c["misses"]),
      line.group(0) if line else txt[:300])
# a deadline given: D halfway across a gap of 5 us or more between the program's response times,
# with 5 to 35 of its jobs later than D
resp = sorted((e - r) * 1e9 / cps for r, e in c["job"])
cut = [i for i in range(len(resp) - 1) if resp[i + 1] - resp[i] > 5000 and 5 <= len(resp) - 1 - i <= 35]
if not cut:
    check(False, "the program's response times leave room for a deadline between them", resp)
    sys.exit(0)
i = cut[len(cut) // 2]
dl, late = int((resp[i] + resp[i + 1]) / 2), len(resp) - 1 - i
q = subprocess.run([kevsql, "--csv", "--no-header", "--deadline", "cadence/worker=%dns" % dl, kev,
                    "SELECT count(*) FROM deadline_miss WHERE label = 'cadence/worker'"], capture_output=True, text=True)
j = subprocess.run([kevstat, "--json", "--deadline", "cadence/worker=%dns" % dl, kev], capture_output=True, text=True)
given = {t["thread"]: t for t in json.loads(j.stdout)["tasks"]["list"]}.get("cadence/worker", {}) if j.returncode == 0 else {}
check(q.stdout.strip() == str(late) and given.get("misses") == late and given.get("deadline_given"),
      "--deadline cadence/worker=%.3f us: %d misses, the jobs the program answered later (kevsql %s, kevstat %s)"
      % (dl / 1e3, late, q.stdout.strip() or q.stderr.strip(), given.get("misses")))
