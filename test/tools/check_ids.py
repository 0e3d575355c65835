#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The three converters agree on ids and priorities (tools/include/kevhost/kx_ids.h): the threads that
# run in the CTF's sched_switch events (babeltrace2) and in the Perfetto trace's have the same
# tids, each thread the same priority (LTTng prio + 100 = Perfetto's kernel prio), the same
# process (CTF statedump / fork pid = Perfetto tgid), and every one of them has a track with
# that pid and tid in the JSON; idle is tid 0 in all three.
# usage: check_ids.py CTFDIR FILE.pftrace FILE.json   (prints TAP lines, no plan)
import json
import os
import re
import subprocess
import sys
from tap_check import check, exit_status

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
ctf, pf, js = sys.argv[1:4]


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
    out, i = [], 0
    while i < len(b):
        key, i = varint(b, i)
        f, wt = key >> 3, key & 7
        if wt == 0:
            v, i = varint(b, i)
        else:
            ln, i = varint(b, i)
            v, i = b[i:i + ln], i + ln
        out.append((f, v))
    return out


def sint(v):
    return v - (1 << 64) if v >= 1 << 63 else v


# CTF: tid -> (comm, prio) from sched_switch; tid -> pid from statedump and fork. (The switch
# from swapper kev2ctf derives at a snapshot entry "CPU c runs who", at that entry's time, is
# for LTTng's analyses: docs/converters.md; Perfetto's trace has none.)
txt = subprocess.run(["babeltrace2", ctf], capture_output=True, text=True).stdout
snap = set(re.findall(r'^\[([^\]]*)\] .* kev_snapshot: .*what = 2,', txt, re.M))
ctf_prio, ctf_pid = {}, {}
for m in re.finditer(r'^\[([^\]]*)\] .*sched_switch: .*prev_tid = (-?\d+), prev_prio = (-?\d+), .*'
                     r'next_tid = (-?\d+), next_prio = (-?\d+)', txt, re.M):
    if m.group(1) in snap and m.group(2) == "0":
        continue
    ctf_prio[int(m.group(2))] = int(m.group(3))
    ctf_prio[int(m.group(4))] = int(m.group(5))
for m in re.finditer(r'statedump_process_state: .*\{ tid = (-?\d+), vtid = \d+, pid = (-?\d+)', txt):
    ctf_pid[int(m.group(1))] = int(m.group(2))
for m in re.finditer(r'sched_process_fork: .*child_tid = (-?\d+), child_pid = (-?\d+)', txt):
    ctf_pid[int(m.group(1))] = int(m.group(2))

# Perfetto: tid -> prio from sched_switch, tid -> tgid from the process tree.
pf_prio, pf_pid = {}, {}
for f, pkt in fields(open(pf, "rb").read()):
    d = dict(fields(pkt))
    if 1 in d:
        for f2, ev in fields(d[1]):
            if f2 != 2:
                continue
            ed = dict(fields(ev))
            if 4 in ed:
                s = dict(fields(ed[4]))
                pf_prio[sint(s.get(2, 0))] = sint(s.get(3, 0))
                pf_prio[sint(s.get(6, 0))] = sint(s.get(7, 0))
    if 2 in d:
        for f2, v in fields(d[2]):
            if f2 == 2:
                x = dict(fields(v))
                pf_pid[sint(x[1])] = sint(x[3])

# JSON: the (pid, tid) of every thread track.
doc = json.load(open(js))
tracks = {(e["pid"], e["tid"]) for e in doc["traceEvents"] if e["ph"] == "M" and e["name"] == "thread_name"}

check("the same threads run in the CTF and the Perfetto trace (%d)" % len(ctf_prio),
      set(ctf_prio) == set(pf_prio), sorted(set(ctf_prio) ^ set(pf_prio))[:10])
check("idle is tid 0 in both (or runs in neither)", (0 in ctf_prio) == (0 in pf_prio))
bad = [(t, ctf_prio[t], pf_prio.get(t)) for t in ctf_prio if pf_prio.get(t) != ctf_prio[t] + 100]
check("each thread's priority agrees (LTTng prio + 100 = kernel prio)", not bad, bad[:5])
bad = [(t, p, pf_pid.get(t)) for t, p in ctf_pid.items() if t and pf_pid.get(t, p) != p]
check("each thread's process agrees (CTF pid = Perfetto tgid)", not bad, bad[:5])
miss = [t for t in ctf_prio if t and (ctf_pid.get(t, pf_pid.get(t)), t) not in tracks]
check("each thread has a JSON track with the same pid and tid", not miss, (miss[:5], sorted(tracks)[:8]))
check("tid 0 (idle) is only ever in process 0 in the JSON",
      all(p == 0 for p, t in tracks if t == 0), [x for x in tracks if x[1] == 0])
exit_status()
