#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# A capture's task classes and deadline misses in every reader, against what the programs say
# of themselves (test/qemu/test_task_class.sh): each periodic task (a timer's pulses release it)
# with the misses its program counted on its own clock; each event-driven task (interrupts,
# messages) with no deadline and no miss, named as such. Held: kevstat --json's tasks (kind,
# period from its timer, deadline, misses), kevstat's text headline (the misses named by task,
# the tasks without a deadline named), kevsql's task_timing and deadline_miss, and the pages
# (the report's Tasks heading, kevweb's task summary, read in Chromium) saying the headline
# kevstat says. A new program needs only its expectations on the command line.
#   task_class_check.py HOST_DIR TRACE.kev OUT_DIR [--periodic LABEL=MISSES]... [--event LABEL]...
#       [--period LABEL=US] [--at-least]
# --at-least: the capture lost events; a periodic task's misses are then at most its program's,
# and every reader says "at least". Prints "ok - ..." / "not ok - ..." lines.
import json, os, re, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tasks_common import check

h, kev, out = sys.argv[1:4]
periodic, event, period, at_least = {}, [], {}, False
a = sys.argv[4:]
while a:
    o = a.pop(0)
    if o == "--periodic":
        k, v = a.pop(0).rsplit("=", 1)
        periodic[k] = int(v)
    elif o == "--event":
        event.append(a.pop(0))
    elif o == "--period":
        k, v = a.pop(0).rsplit("=", 1)
        period[k] = float(v)
    elif o == "--at-least":
        at_least = True
    else:
        sys.exit("task_class_check.py: unknown option " + o)


def run(*args):
    return subprocess.run(list(args), capture_output=True, text=True)


def misses_ok(got, want):
    return got <= want if at_least else got == want


st = json.loads(run(h + "/kevstat", "--json", kev).stdout)
hz = st["trace"]["cycles_per_sec"]
tasks = {t["thread"]: t for t in st["tasks"]["list"]}
head = st["tasks"].get("headline", "")
for lb, m in periodic.items():
    t = tasks.get(lb)
    if not t:
        check(False, "kevstat: a task %s" % lb, list(tasks))
        continue
    check(t["kind"] == "periodic" and t["period_from"] in ("timer", "relayed timer") and t["deadline"] == t["period"] > 0,
          "kevstat: %s is periodic, its deadline its timer's period (%s)" % (lb, t["period_from"]), t)
    if lb in period:
        check(abs(t["period"] * 1e6 / hz - period[lb]) <= 1,
              "kevstat: %s's period %.3f us is its timer's %g us" % (lb, t["period"] * 1e6 / hz, period[lb]))
    check(misses_ok(t["misses"], m) and (t["spoiled"] > 0) == at_least,
          "kevstat: %s has %s%d misses (its program counted %d)" % (lb, "at least " if at_least else "", t["misses"], m), t["spoiled"])
for lb in event:
    t = tasks.get(lb)
    check(t is not None and t["kind"] == "event-driven" and t["deadline"] == 0 and t["period"] == 0 and t["misses"] == 0,
          "kevstat: %s is event-driven, no period, no deadline, no miss" % lb, t)
total = sum(tasks[lb]["misses"] for lb in periodic if lb in tasks)
pre = "at least " if at_least else ""
check(head.startswith("%d task(s), %s%d deadline miss(es): " % (len(tasks), pre, total)),
      "kevstat's headline: %d task(s), %s%d deadline miss(es)" % (len(tasks), pre, total), head)
for lb in periodic:
    check(re.search(r"(: |, )%s %s%d \(deadline " % (re.escape(lb), pre, tasks.get(lb, {}).get("misses", -1)), head) is not None,
          "the headline names %s with its misses" % lb, head)
tail = head.split("without a deadline", 1)[1] if "without a deadline" in head else ""
for lb in event:
    check(lb in tail, "the headline names %s among the tasks without a deadline" % lb, head)
txt = run(h + "/kevstat", "-s", "tasks", kev).stdout
check(("  " + head + "\n") in txt, "kevstat's text says the same headline", txt[:400])
# kevsql: the same kinds and misses, and as many deadline_miss rows
q = run(h + "/kevsql", "--json", kev, "SELECT label, kind, period_from, misses, deadline_ns FROM task_timing")
rows = {r[0]: r for r in json.loads(q.stdout)["rows"]} if q.returncode == 0 else {}
for lb, m in periodic.items():
    r = rows.get(lb)
    check(r is not None and r[1] == "periodic" and misses_ok(r[3], m) and r[3] == tasks.get(lb, {}).get("misses"),
          "kevsql task_timing: %s periodic, %s misses as kevstat" % (lb, r[3] if r else None), r)
for lb in event:
    r = rows.get(lb)
    check(r is not None and r[1] == "event-driven" and not r[3] and r[4] is None,
          "kevsql task_timing: %s event-driven, no deadline, no miss (not judged: NULL)" % lb, r)
q = run(h + "/kevsql", "--csv", "--no-header", kev, "SELECT label, count(*) FROM deadline_miss GROUP BY label")
dm = dict(l.rsplit(",", 1) for l in q.stdout.split()) if q.returncode == 0 else {}
check(set(dm) <= set(periodic) and all(int(dm.get(lb, 0)) == tasks.get(lb, {}).get("misses") for lb in periodic),
      "kevsql deadline_miss: rows of the periodic tasks alone, as many as their misses", dm)
# the pages, in Chromium
page = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools", "page_tasks.py")
run(h + "/kevreport", "-o", out + "/report.html", kev)
rep = run("timeout", "120", "/usr/bin/python3", page, "report", out + "/report.html").stdout.strip()
check(rep.startswith(head), "the report's Tasks heading says kevstat's headline", rep)
web = subprocess.Popen([h + "/kevweb", "-p", "0", kev], stderr=subprocess.PIPE, text=True)
port = None
for _ in range(200):
    l = web.stderr.readline()
    m = re.search(r"http://localhost:(\d+)/", l)
    if m:
        port = m.group(1)
        break
kw = run("timeout", "150", "/usr/bin/python3", page, "kevweb", "http://localhost:%s/" % port).stdout.strip() if port else "none"
web.send_signal(2)
try:
    web.wait(10)
except subprocess.TimeoutExpired:
    web.kill()
check(head in kw, "kevweb's task summary over the finished file says kevstat's headline", kw)
