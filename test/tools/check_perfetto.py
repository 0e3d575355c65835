#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Decodes kev2perfetto's protobuf output with a small wire-format reader (no protobuf package
# needed) and checks it against a kevscen scenario: every length adds up, per-CPU timestamps
# never go back, one sched_switch per RUNNING event, the worker's CPU time rebuilt from the
# sched_switch sequence, interrupts, the process tree.
# usage: check_perfetto.py FILE [EXPECT-FILE RUNNING-EVENTS]   (prints TAP lines, no plan)
# With FILE alone only the decoding and the timestamp order are checked.
import sys

path = sys.argv[1]
full = len(sys.argv) > 3
n = 0
fails = 0


def check(name, cond, detail=""):
    global n, fails
    n += 1
    print(("ok %d - %s" if cond else "not ok %d - %s") % (n, name))
    if not cond:
        fails += 1
        if detail != "":
            print("# " + str(detail))


def varint(b, i):
    v = shift = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7f) << shift
        shift += 7
        if not c & 0x80:
            return v, i


def fields(b):
    """[(field, value)] of a message; value is an int or bytes. Raises on a bad encoding."""
    out, i = [], 0
    while i < len(b):
        key, i = varint(b, i)
        f, wt = key >> 3, key & 7
        if wt == 0:
            v, i = varint(b, i)
        elif wt == 2:
            ln, i = varint(b, i)
            if i + ln > len(b):
                raise ValueError("field %d runs past its message" % f)
            v, i = b[i:i + ln], i + ln
        else:
            raise ValueError("unexpected wire type %d" % wt)
        out.append((f, v))
    return out


def sint(v):  # int32/int64 fields: two's complement in 64 bits
    return v - (1 << 64) if v >= 1 << 63 else v


exp = {}
if full:
    for line in open(sys.argv[2]):
        p = line.split()
        if len(p) >= 3 and p[0] == "expect":
            exp[p[1]] = p[2:]

data = open(path, "rb").read()
try:
    packets = [v for f, v in fields(data) if f == 1]
    decoded = [fields(p) for p in packets]
    check("the trace decodes: %d packets" % len(packets), True)
except (ValueError, IndexError) as err:
    check("the trace decodes", False, err)
    sys.exit(1)

events = []  # (cpu, ts, pid, kind, fields)
procs, threads = {}, {}
ok_seq = True
for pkt in decoded:
    d = dict(pkt)
    ok_seq &= 10 in d
    if 1 in d:
        bundle = fields(d[1])
        cpu = dict(bundle).get(1, 0)
        for f, ev in bundle:
            if f != 2:
                continue
            e = fields(ev)
            ed = dict(e)
            kind = [f2 for f2, _ in e if f2 not in (1, 2)]
            events.append((cpu, ed[1], ed[2], kind[0], dict(fields(ed[kind[0]]))))
    if 2 in d:
        for f, v in fields(d[2]):
            x = dict(fields(v))
            if f == 1:
                procs[sint(x[1])] = x[3].decode()
            else:
                threads[sint(x[1])] = (x[2].decode(), sint(x[3]))
check("every packet has a trusted_packet_sequence_id", ok_seq)
by_cpu = {}
mono = True
for cpu, ts, pid, kind, f in events:
    mono &= ts >= by_cpu.get(cpu, 0)
    by_cpu[cpu] = ts
check("timestamps never go back on a CPU", mono)
check("CPUs with events: %s" % ",".join(str(c) for c in sorted(by_cpu)), True)
if not full:
    sys.exit(1 if fails else 0)
R = int(exp["rounds"][0])
running = int(sys.argv[3])
sw = [e for e in events if e[3] == 4]
check("one sched_switch per RUNNING event (%d)" % running, len(sw) == running, len(sw))
check("first switch at %d ns (the first round, 1 MHz clock)" % 2000000, sw and sw[0][1] == 2000000,
      sw[0][1] if sw else None)
worker = [tid for tid, (name, tgid) in threads.items() if name == "worker/main"]
busy, cur, since = 0, None, 0
for cpu, ts, pid, kind, f in sw:
    if cur in worker:
        busy += ts - since
    cur, since = sint(f[6]), ts
want = int(exp["cpu.worker/main"][0]) * 1000
check("worker CPU time from the sched_switch sequence: %d ns" % want, busy == want, busy)
check("sched_switch names and tids: client 2001 -> server 3001",
      any(f[1] == b"client" and sint(f[2]) == 2001 and f[5] == b"server" and sint(f[6]) == 3001
          for c, t, p, k, f in sw))
check("the idle thread is tid 0 (swapper)", any(sint(f[6]) == 0 and f[5] == b"swapper" for c, t, p, k, f in sw))
wk = [e for e in events if e[3] == 17]
check("sched_wakeup events", len(wk) >= R, len(wk))
irq = [e for e in events if e[3] == 36 and e[4].get(1) == 5]
check("%d irq_handler_entry for irq 5" % R, len(irq) == R, len(irq))
check("%d irq_handler_exit" % R, len([e for e in events if e[3] == 37]) == R)
check("process tree names the processes",
      {"client", "server", "driver", "worker"} <= set(procs.values()), procs)
check("threads belong to their process (tgid = pid * 1000 + 1)",
      all(tgid in procs for name, tgid in threads.values()), threads)
sys.exit(1 if fails else 0)
