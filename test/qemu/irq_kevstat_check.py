#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# kevstat's interrupt figures for the device line of an irq-rate capture (test_irqrate.sh)
# against the rate the program programmed it at: its START user event (210: word 0 the rate in
# Hz, word 1 the line), found by the independent reader of the file (test/tools/kev_reader.py):
#   * the rate kevstat gives is over the time the line was active, so it is the programmed rate
#     (within TOL percent; the whole trace's span, boot included, gave 1,929 for 2,000 Hz);
#   * every interrupt of the line is in the interrupt-to-thread latency, but those its thread
#     had not got to by the end of the trace (at most the last one, after the program stopped).
#   * kevsql's irq_latency view gives that rate and every interrupt measured too.
#   irq_kevstat_check.py KEVSTAT TRACE.kev [TOL [KEVSQL]]
# Prints "STATUS DESCRIPTION" lines (0 good).
import json
import os
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import kev_reader  # noqa: E402

kevstat, trace = sys.argv[1:3]
tol = float(sys.argv[3]) if len(sys.argv) > 3 else 0.05
start = [w for t, cpu, cls, ev, w, off in kev_reader.events(open(trace, "rb").read())
         if cls == 6 and ev == 210]
rate, line = (start[0][0], start[0][1]) if start else (0, -1)
j = json.loads(subprocess.run([kevstat, "--json", trace], capture_output=True, text=True).stdout)
q = ([i for i in j["interrupts"] if i["irq"] == line] or [{}])[0]
got = q.get("rate_per_s", 0)
print("%d kevstat: irq %d at %.1f per second over the time it was active, the programmed %d Hz "
      "(within %g%%)" % (0 if rate and abs(got - rate) <= rate * tol / 100 else 1, line, got, rate, tol))
n, count = q.get("latency", {}).get("n", 0), q.get("count", 0)
print("%d kevstat: interrupt-to-thread latency over every interrupt of the line (%d of %d; %d not "
      "handled by the end, %d woke no thread)" % (0 if count and n >= count - 1 and q.get("no_thread") == 0
      and n + q.get("unhandled", 0) == count else 1, n, count, q.get("unhandled", -1), q.get("no_thread", -1)))
kevsql = sys.argv[4] if len(sys.argv) > 4 else None
if kevsql:
    out = subprocess.run([kevsql, "--json", trace, "SELECT rate_per_s, measured, interrupts, "
                          "unhandled FROM irq_latency WHERE irq = %d" % line],
                         capture_output=True, text=True)
    r = (json.loads(out.stdout)["rows"] if out.returncode == 0 else []) or [[0, 0, 0, 0]]
    rate_s, meas, cnt, unh = r[0]
    print("%d kevsql: irq_latency gives irq %d at %.1f per second (programmed %d Hz) and %d of its "
          "%d interrupts measured" % (0 if rate and abs((rate_s or 0) - rate) <= rate * tol / 100
                                       and cnt == count and meas + unh == cnt and meas >= cnt - 1
                                       else 1, line, rate_s or 0, rate, meas, cnt))
