#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# kevstat over acq's capture against truths from outside kevstat (test/qemu/test_acq.sh):
#   * its list of waits (-s waits): the supervisor's waits on the semaphore during which the
#     hog ran in the logger's place, as many and as long as acq measured them itself with
#     ClockCycles ("the supervisor (35) waited N times ... longest L us": within 1% + 20 us);
#   * each CPU's time (--json: running, idle, none) adds up to the trace's span, its idle time
#     is what the independent reader of the file's bytes (test/tools/kev_reader.py, written from
#     docs/kev-format.md alone) gives, and so is every thread's CPU time.
#   * kevsql's priority_inversion view and wait table give the waits acq measured (how many, the
#     longest).
#   acq_kevstat_check.py KEVSTAT TRACE.kev RUN.LOG [KEVSQL]
# Prints "STATUS DESCRIPTION" lines (0 good) for test_acq.sh's ok.
import json
import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "tools"))
sys.dont_write_bytecode = True
import kev_reader  # noqa: E402

kevstat, trace, log = sys.argv[1:4]
kevsql = sys.argv[4] if len(sys.argv) > 4 else None


def say(good, text):
    print("%d %s" % (0 if good else 1, text))


m = re.search(r"waited (\d+) times on the semaphore .* longest (\d+) us", open(log).read())
txt = subprocess.run([kevstat, "-s", "waits", trace], capture_output=True, text=True).stdout
waits = [float(w) for w in re.findall(
    r"acq/supervisor waited ([0-9.]+) us \(SEM\) on semaphore \d+ held by acq/logger: .*by acq/hog", txt)]
if not m:
    say(False, "acq's own count of the supervisor's waits is in its log")
else:
    n, longest = int(m.group(1)), int(m.group(2))
    say(len(waits) == n, "kevstat -s waits lists %d waits of the supervisor on the semaphore while "
        "the hog ran, as acq counted (%d)" % (len(waits), n))
    worst = max(waits) if waits else 0
    say(abs(worst - longest) <= 0.01 * longest + 20, "the longest listed, %.3f us, is the one acq "
        "measured (%d us)" % (worst, longest))

j = json.loads(subprocess.run([kevstat, "--json", trace], capture_output=True, text=True).stdout)
ind = kev_reader.analyse(open(trace, "rb").read())
span = j["trace"]["last"] - j["trace"]["first"]
ncpu = len(j["busy_cycles"])
sums = [j["busy_cycles"][c] + j["idle_cycles"][c] + j["none_cycles"][c] for c in range(ncpu)]
say(all(x == span for x in sums), "every CPU's running + idle + no-thread time is the trace's span "
    "(%s, span %d cycles)" % (sums, span))
idle = [ind["idle"].get(str(c), 0) for c in range(ncpu)]
say(j["idle_cycles"] == idle, "each CPU's idle time %s is the independent reader's %s"
    % (j["idle_cycles"], idle))
cpu = {"%d/%d" % (t["pid"], t["tid"]): t["cpu_cycles"] for t in j["threads"] if t["cpu_cycles"]}
say(cpu == ind["cpu"], "every thread's CPU time is the independent reader's (%d threads)" % len(cpu))
if kevsql and m:
    q = ("SELECT (SELECT waits FROM priority_inversion WHERE waiter = 'acq/supervisor' AND "
         "owner = 'acq/logger'), max(w.dur) FROM wait w JOIN thread_label l USING (utid) "
         "WHERE l.label = 'acq/supervisor' AND w.inversion > 0")
    out = subprocess.run([kevsql, "--json", trace, q], capture_output=True, text=True)
    rows = json.loads(out.stdout)["rows"] if out.returncode == 0 else [[None, None]]
    n, longest = int(m.group(1)), int(m.group(2))
    say(rows[0][0] == n, "kevsql: priority_inversion has the supervisor's %d waits behind the "
        "logger, as acq counted (%s)" % (n, rows[0][0]))
    worst = (rows[0][1] or 0) / 1000
    say(abs(worst - longest) <= 0.01 * longest + 20, "kevsql: the longest of those waits (wait), "
        "%.3f us, is the one acq measured (%d us)" % (worst, longest))
