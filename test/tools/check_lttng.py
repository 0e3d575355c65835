#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# LTTng's own analyses (Debian's python3-lttnganalyses) over kev2ctf's output of a capture,
# held against kevstat on the same capture:
#   - lttng-cputop, lttng-irqstats, lttng-schedstats, lttng-syscallstats and lttng-periodstats
#     run as a user runs them (their check of the trace with babeltrace included) and end
#     without an error;
#   - per-thread CPU (lttng-cputop): kevstat's share of the trace span plus the thread's
#     switch paths, within 0.05 point: cputop counts a thread on the CPU up to the
#     sched_switch that takes it off, kevstat up to the thread's own state event just before,
#     so the kernel's switch path (from that event to the next THRUNNING on its CPU, taken
#     from traceprinter's events) is the thread's in one and nobody's in the other. Exact, so
#     that an emulator stalled in a switch path (QEMU on the host's clock) moves both alike;
#   - migrations per thread (lttng-cputop, from the sched_migrate_task events): kevstat's;
#   - interrupts per line (lttng-irqstats), kernel calls per call (lttng-syscallstats, summed
#     over its threads) and one period per interrupt (lttng-periodstats, a period from each
#     irq_handler_entry to the exit on its CPU): exactly kevstat's counts.
# The numbers come from the analyses' machine interface (lttng-*-mi, JSON), the same code.
#   - with --moves PID/TID=N, a program's own count of one thread's moves between CPUs: that
#     thread's migrations in kevstat and in lttng-cputop are N, and N is not 0.
# usage: check_lttng.py HOSTBIN FILE.kev OUTDIR [--moves PID/TID=N]
#   (TAP lines, no plan; exit 1 on a failure)
import json
import os
import re
import shutil
import subprocess
import sys
from tap_check import check, exit_status

bin_dir, kev, out = sys.argv[1], sys.argv[2], sys.argv[3]
moves = sys.argv[5] if len(sys.argv) > 5 and sys.argv[4] == "--moves" else None
# As a user types it: kev2ctf -o DIR, then lttng-cputop DIR (kev2ctf writes an LTTng session's
# layout, DIR/kernel, where LTTng's analyses read the tracer's version).
os.makedirs(out, exist_ok=True)
session = os.path.join(out, "session")
shutil.rmtree(session, ignore_errors=True)
rc = subprocess.run([os.path.join(bin_dir, "kev2ctf"), "-o", session, kev],
                    capture_output=True, text=True)
check("kev2ctf -o %s writes an LTTng session (%s/kernel/metadata)" % (session, session),
      rc.returncode == 0 and os.path.exists(os.path.join(session, "kernel", "metadata")),
      rc.stderr)
ks = json.loads(subprocess.run([os.path.join(bin_dir, "kevstat"), "--json", kev],
                               capture_output=True, text=True).stdout)
IRQ_PERIOD = ('irq : $evt.$name == "irq_handler_entry" : $evt.$name == "irq_handler_exit"'
              ' && $evt.cpu_id == $begin.$evt.cpu_id')


def analysis(name, *args):
    """Runs lttng-NAME as a user does; its output is kept in OUTDIR/NAME.txt."""
    if not shutil.which("lttng-" + name):
        check("lttng-%s runs" % name, False, "not installed: scripts/setup.sh --test")
        return
    r = subprocess.run(["lttng-" + name, "--no-progress", *args, session],
                       capture_output=True, text=True)
    with open(os.path.join(out, name + ".txt"), "w") as f:
        f.write(r.stdout + r.stderr)
    check("lttng-%s runs without an error" % name,
          r.returncode == 0 and "Error" not in r.stderr + r.stdout,
          (r.stderr or r.stdout)[-600:])


def mi(name, *args):
    """The results of lttng-NAME-mi (JSON), [] when it fails."""
    r = subprocess.run(["lttng-" + name + "-mi", "--skip-validation", *args, session],
                       capture_output=True, text=True)
    try:
        return json.loads(r.stdout)["results"]
    except (ValueError, KeyError):
        return []


for a in ("cputop", "irqstats", "schedstats", "syscallstats"):
    analysis(a)
analysis("periodstats", "--period", IRQ_PERIOD)

# ---- CPU per thread ----
span = ks["trace"]["last"] - ks["trace"]["first"]
top = [row for r in mi("cputop", "--limit", "100000") if r["class"] == "per-process"
       for row in r["data"]]
cputop = {row[0]["tid"]: row[3]["value"] * 100 for row in top}


def switch_paths():
    """Cycles per (pid, tid) from the thread's own state event that ends its run to the next
    THRUNNING on that CPU, from traceprinter's events (merged in time order)."""
    tp = subprocess.run([os.path.join(bin_dir, "traceprinter"), "-n", "-m", "-p",
                         "%c|%C|%Z|%z|%a", kev], capture_output=True, text=True).stdout
    running, pending, paths = {}, {}, {}
    for line in tp.splitlines():
        f = [x.strip() for x in line.split("|", 4)]
        if len(f) < 5 or f[2] != "THREAD" or not f[0].isdigit():
            continue
        m = re.search(r"pid:(\d+) tid:(\d+)", f[4])
        if not m:
            continue
        t, cpu, who = int(f[0]), f[1], (int(m.group(1)), int(m.group(2)))
        if f[3] == "THRUNNING":
            if cpu in pending:
                was, since = pending.pop(cpu)
                paths[was] = paths.get(was, 0) + t - since
            running[cpu] = who
        elif running.get(cpu) == who:
            pending[cpu] = (who, t)
            running[cpu] = None
    return paths


paths = switch_paths()
far, worst = [], 0.0
threads = [t for t in ks["threads"] if t["pid"] != 0 and t["cpu_cycles"]]
for t in threads:
    tid = t["pid"] * 1000 + t["tid"]           # kx_ids.h: the Linux tid of a QNX thread
    want = (t["cpu_cycles"] + paths.get((t["pid"], t["tid"]), 0)) * 100.0 / span
    got = cputop.get(tid)
    if got is None or abs(got - want) > 0.05:
        far.append((t["name"], tid, round(want, 2), got if got is None else round(got, 2)))
    elif abs(got - want) > worst:
        worst = abs(got - want)
check("lttng-cputop: each of %d threads' CPU within 0.05 point of kevstat's and its switch "
      "paths' (worst %.3f)"
      % (len(threads), worst), threads and not far, far)

# ---- migrations (sched_migrate_task, which lttng-cputop counts) ----
moved = {row[0]["tid"]: row[1]["value"] for row in top if row[1]["value"]}
want = {t["pid"] * 1000 + t["tid"]: t["migrations"] for t in ks["threads"]
        if t["pid"] != 0 and t.get("migrations")}
check("lttng-cputop: each thread's migrations as kevstat counts them (%d threads, %d in all)"
      % (len(want), sum(want.values())), (want or not moves) and moved == want, (moved, want))
if moves:  # the program's own count of one thread's moves
    who, n = moves.split("=")
    pid, tid = (int(x) for x in who.split("/"))
    ltid = pid * 1000 + tid                     # kx_ids.h: the Linux tid of a QNX thread
    kst = [t.get("migrations", 0) for t in ks["threads"] if t["pid"] == pid and t["tid"] == tid]
    check("the program's %s moves of thread %d/%d: kevstat's migrations %s, lttng-cputop's %s"
          % (n, pid, tid, kst[0] if kst else "none", moved.get(ltid, "none")),
          int(n) > 0 and kst == [int(n)] and moved.get(ltid) == int(n), (kst, moved.get(ltid)))

# ---- interrupts ----
irqs = {row[0]["nr"]: row[1]["value"]
        for r in mi("irqstats") if r["class"] == "hard-stats" for row in r["data"]}
want = {i["irq"]: i["count"] for i in ks["interrupts"]}
check("lttng-irqstats: interrupts per line as kevstat counts them (%s)"
      % ", ".join("%d: %d" % kv for kv in sorted(want.items())), want and irqs == want,
      (irqs, want))
periods = {row[0]["value"]: row[1]["value"]
           for r in mi("periodstats", "--period", IRQ_PERIOD) if r["class"] == "per_period_stats"
           for row in r["data"]}
total = sum(want.values())
check("lttng-periodstats: one period per interrupt, entry to exit on its CPU (%d)" % total,
      periods.get("irq") == total, periods)

# ---- kernel calls ----
calls = {}
for r in mi("syscallstats"):
    if r["class"] == "total":
        continue
    for row in r["data"]:
        calls[row[0]["name"]] = calls.get(row[0]["name"], 0) + row[1]["value"]
want = {}
for k in ks["kernel_calls"]:   # (kevstat's rows apart, the logger's own, under the API's name)
    if k["count"]:
        n = k.get("api", k["name"])
        want[n] = want.get(n, 0) + k["count"]
diff = {n: (calls.get(n, 0), want.get(n, 0)) for n in set(calls) | set(want)
        if calls.get(n, 0) != want.get(n, 0)}
check("lttng-syscallstats: each of %d kernel calls completed as often as kevstat says (%d calls)"
      % (len(want), sum(want.values())), want and not diff, diff)
exit_status()
