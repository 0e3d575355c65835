#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Checks the analyses of a trace of the demo system (make run) against what the demo programs
# themselves printed: the client's requests to srv, the driver's device interrupts delivered
# as pulses, the ticker's timer pulses. Meant for the QEMU demo test; prints TAP lines.
# usage: check_demo_trace.py KEVSTAT TRACE.kev DEMO-OUTPUT.log
import json
import re
import subprocess
import sys

kevstat, trace, log = sys.argv[1:4]
out = open(log, errors="replace").read()
n = 0
fails = 0


def check(name, got, want):
    global n, fails
    n += 1
    good = got == want
    print(("ok %d - %s: %s" if good else "not ok %d - %s: %s") % (n, name, want))
    if not good:
        fails += 1
        print("# the trace says %r" % (got,))


def printed(pattern):
    m = re.search(pattern, out)
    return int(m.group(1)) if m else None


run = subprocess.run([kevstat, "--json", trace], capture_output=True, text=True)
if run.returncode != 0:
    print("not ok 1 - kevstat reads %s: %s" % (trace, run.stderr.strip()))
    sys.exit(1)
stats = json.loads(run.stdout)
chans = stats["channels"]


def count(pred):
    return sum(c["count"] for c in chans if pred(c))


requests = printed(r"client: (\d+) requests")
interrupts = printed(r"driver: (\d+) device interrupts")
ticks = printed(r"ticker: (\d+) ticks")
lost = stats["trace"]["lost"]
if lost:
    print("# %d events were lost: counts below may be short" % lost)
if requests is not None:
    check("client requests to srv", count(lambda c: c["client"].startswith("client/") and
                                          c["server"] == "srv" and not c["pulse"]), requests)
if interrupts is not None:
    check("device interrupts delivered to the driver as pulses",
          count(lambda c: c["client"].startswith("irq ") and c["server"] == "driver"), interrupts)
if ticks is not None:
    check("timer pulses to the ticker",
          count(lambda c: c["client"].startswith("irq ") and c["server"] == "ticker"), ticks)
check("every receive matched a send", stats["trace"]["unmatched_receives"], 0)
check("every reply matched a message", stats["trace"]["unmatched_replies"], 0)
print("1..%d" % n)
sys.exit(1 if fails else 0)
