#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# An independent reader of .kev files, written from docs/kev-format.md and docs/trace-events.md
# alone (and QNX's public thread state numbers, sys/states.h, which the format uses): none of
# the project's decoder or analysis code. The tests hold the tools' answers against it:
#   counts     events of each (class, event) kind, CONTROL aside (kevsql's raw events)
#   cpu        each thread's running time in cycles, "pid/tid": a thread runs from its RUNNING
#              event to its next state event, or to the next RUNNING of another thread on that
#              CPU (kevstat's, kevsql's sched_slice)
#   idle       each CPU's time running its idle thread (process 0's, or a thread named "idle"
#              as QNX's procnto names its), in cycles
#   span       first and last event time, in cycles since boot
#   hz         the header's CYCLES_PER_SEC
#   threads    each event's thread, by its file offset (event_threads): a thread state event's
#              own; else the thread running on its CPU; else, between a thread's leaving and the
#              next one's RUNNING there, the thread the CPU's last ONCPU named (the kernel is
#              still in its context: docs/trace-events.md); None when neither is known. "idle"
#              for an idle thread. The START snapshot's events are left out (they replay the
#              state, all on the CPU that took it).
#   named      the thread each PRIO_CHANGE, STACK and FAULT names (word 0, its who), in time
#              order: {"PRIO_CHANGE": [[time, "pid/tid" or "idle"], ...], ...}
# usage: kev_reader.py FILE.kev [counts|cpu|idle|span|hz|threads|named|all]   (JSON on stdout)
import json
import struct
import sys

RUNNING, READY = 1, 2
TH_CREATE, TH_DESTROY = 24, 25
PROCTHREAD_NAME = 320
C_CONTROL, C_PR_TH, C_SYSTEM = 1, 4, 5
CTL_TIME = 1
SYS_SNAPSHOT = 0x201
SYS_ONCPU = 0x20a
SYS_NAMING = {0x204: "PRIO_CHANGE", 0x205: "STACK", 0x206: "FAULT"}   # word 0: the thread's who
CLASS = {1: "CONTROL", 2: "KER_CALL", 3: "INT", 4: "PR_TH", 5: "SYSTEM", 6: "USER", 7: "COMM"}


def header(data):
    """The ASCII header: (items, offset of the system page)."""
    begin, end = b"TRACE_HEADER_BEGIN::", b"TRACE_HEADER_END::"
    if not data.startswith(begin):
        raise ValueError("not a .kev file")
    stop = data.index(end)
    body = data[len(begin):stop].decode("latin-1")
    items = {}
    for part in body.split("TRACE_")[1:]:
        key, _, val = part.partition("::")
        items[key] = val.rstrip("\n")
    off = stop + len(end)
    if items.get("VER_MINOR", "02") == "01" and data[off:off + 1] == b"\n":
        off += 1
    return items, off


def slots(data):
    """Every event of the file in file order: (class, event, cpu, time32, words, offset)."""
    items, off = header(data)
    big = items.get("BIG_ENDIAN") == "TRUE"
    w = struct.Struct(">IIII" if big else "<IIII")
    off += int(items["SYSPAGE_LEN"])
    # the trailer: its last slot holds [checksum, trailer length, "END!"]
    end = len(data)
    if end >= 16 and w.unpack_from(data, end - 16)[3] == 0x21444e45:
        end -= w.unpack_from(data, end - 16)[2]
    comb = None
    while off + 16 <= end:
        h, t, a, b = w.unpack_from(data, off)
        ev, cls, cpu, typ = h & 0x3ff, (h >> 10) & 0x1f, (h >> 24) & 0x3f, h >> 30
        if typ == 0:
            yield cls, ev, cpu, t, [a, b], off
        elif typ == 1:
            comb = [cls, ev, cpu, t, [a, b], off]
        else:
            comb[4] += [a, b]
            if typ == 3:
                yield tuple(comb)
        off += 16


def events(data):
    """Events with 64-bit times, CPU by CPU rebuilt from TIME and wraps, then merged in time
    order (each CPU's events are in order in the file; its buffers come one after another)."""
    hi, last, per = {}, {}, {}
    for cls, ev, cpu, t, words, off in slots(data):
        if cls == C_CONTROL and ev == CTL_TIME:
            hi[cpu] = words[0]
        elif cpu in hi and t < last.get(cpu, 0):
            hi[cpu] += 1
        last[cpu] = t
        per.setdefault(cpu, []).append((hi.get(cpu, 0) << 32 | t, cpu, cls, ev, words, off))
    merged = [e for lst in per.values() for e in lst]
    merged.sort(key=lambda e: (e[0], e[1]))   # ties: the lower CPU first
    return merged


def is_loss_note(cls, ev, words):
    return cls == C_SYSTEM and ev == 12 and words and words[0] == 1   # SLOG opcode 1


def analyse(data):
    items, _ = header(data)
    big = items.get("BIG_ENDIAN") == "TRUE"
    names = {}          # (pid, tid) -> name, from PROCTHREAD_NAME [pid, tid, name]
    counts, cpu_time, idle = {}, {}, {}
    idle_threads = set()  # "pid/tid" of the threads that ran as a CPU's idle thread
    running = {}        # cpu -> (pid, tid, since)
    where = {}          # (pid, tid) -> cpu
    in_snap = False
    first = last = None

    def stop(cpu, t):
        if cpu in running:
            pid, tid, since = running.pop(cpu)
            where.pop((pid, tid), None)
            key = "%d/%d" % (pid, tid)
            cpu_time[key] = cpu_time.get(key, 0) + t - since
            if pid == 0 or names.get((pid, tid)) == "idle":
                idle[cpu] = idle.get(cpu, 0) + t - since
                idle_threads.add(key)

    def start(cpu, pid, tid, t):
        if (pid, tid) in where:
            stop(where[(pid, tid)], t)
        stop(cpu, t)
        running[cpu] = (pid, tid, t)
        where[(pid, tid)] = cpu

    unplaced = {}       # the snapshot's running threads its entries have not placed yet
    oncpu = {}          # cpu -> (pid, tid) its last ONCPU named
    threads = {}        # event offset -> "pid/tid", "idle" or None (outside the snapshot)
    named = {k: [] for k in SYS_NAMING.values()}

    def label(pid, tid):
        return "idle" if pid == 0 or names.get((pid, tid)) == "idle" else "%d/%d" % (pid, tid)

    for t, cpu, cls, ev, words, off in events(data):
        if cls == C_CONTROL or is_loss_note(cls, ev, words):
            continue
        if not in_snap and not (cls == C_SYSTEM and ev == SYS_SNAPSHOT):
            if cls == C_PR_TH and ev <= TH_DESTROY and len(words) >= 2:
                who = (words[0], words[1])
            elif cpu in running:
                who = running[cpu][:2]
            else:
                who = oncpu.get(cpu)
            threads[off] = label(*who) if who else None
        if cls == C_SYSTEM and ev in SYS_NAMING and words:
            named[SYS_NAMING[ev]].append([t, label(words[0] >> 16, words[0] & 0xffff)])
        if cls == C_SYSTEM and ev == SYS_ONCPU and words and words[0]:
            oncpu[cpu] = (words[0] >> 16, words[0] & 0xffff)
        kind = "%s/%d" % (CLASS.get(cls, str(cls)), ev)
        counts[kind] = counts.get(kind, 0) + 1
        first = t if first is None else first
        last = t
        if cls == C_SYSTEM and ev == SYS_SNAPSHOT:
            if words[0] & 0xff == 2:         # CPU words[0] >> 8 runs words[1] (pid << 16 | tid)
                who = (words[1] >> 16, words[1] & 0xffff)
                start((words[0] >> 8) & 0xff, who[0], who[1], unplaced.pop(who, t))
            elif words[0] == 0:
                in_snap = True
            elif words[0] == 1:              # not placed by an entry: the snapshot's CPU
                in_snap = False
                for (pid, tid), since in unplaced.items():
                    start(cpu, pid, tid, since)
                unplaced = {}
            continue
        if cls == C_PR_TH and ev == PROCTHREAD_NAME and len(words) > 2:
            # the name's bytes in memory order: the words as the file stores them
            raw = struct.pack((">" if big else "<") + "I" * (len(words) - 2), *words[2:])
            names[(words[0], words[1] or 1)] = raw.split(b"\0")[0].decode("utf-8", "replace")
            continue
        if cls != C_PR_TH or ev > TH_DESTROY or len(words) < 2:
            continue
        pid, tid = words[0], words[1]
        if ev == RUNNING:
            # in the START snapshot every state event is on the CPU that took it: an idle
            # thread (process 0, tid k + 1) runs on its CPU k; another one's entry says where
            # it runs (it runs from its state event)
            if in_snap:
                if pid == 0 or names.get((pid, tid)) == "idle":
                    start(tid - 1, pid, tid, t)
                else:
                    unplaced[(pid, tid)] = t
                continue
            start(cpu, pid, tid, t)
        elif ev != TH_CREATE and (pid, tid) in where:
            stop(where[(pid, tid)], t)
    for cpu in list(running):
        stop(cpu, last)
    return {"counts": counts, "cpu": cpu_time, "idle": {str(c): v for c, v in idle.items()},
            "idle_threads": sorted(idle_threads),
            "span": [first, last], "hz": int(items.get("CYCLES_PER_SEC", "0")),
            "threads": threads, "named": named}


if __name__ == "__main__":
    res = analyse(open(sys.argv[1], "rb").read())
    what = sys.argv[2] if len(sys.argv) > 2 else "all"
    json.dump(res if what == "all" else res[what], sys.stdout, sort_keys=True)
    print()
