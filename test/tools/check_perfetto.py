#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Decodes kev2perfetto's protobuf output with a small wire-format reader (no protobuf package
# needed) and checks it by the rules Perfetto's trace processor imports ftrace with
# (src/trace_processor/importers/ftrace/: ftrace_tokenizer.cc, ftrace_sched_event_tracker.cc,
# ftrace_parser.cc; importers/common/thread_state_tracker.cc), then against a kevscen scenario.
# Importer rules, on every trace:
#   - sched continuity: on each CPU a sched_switch's prev_pid is the previous switch's next_pid
#     (else trace processor counts mismatched_sched_switch_tids and leaves the slice open);
#   - waking before runnable: a thread switched out asleep is switched in again only after a
#     sched_waking (the only event thread_state is built from: runnable state and waker);
#   - FtraceEvent.pid is the thread current on the CPU (the last switch's next_pid): the waker
#     of a sched_waking, the thread an interrupt hit;
#   - priorities: threads are real-time (kernel prio < 100) or, priority unknown, 120 like
#     idle;
#   - loss reaches the stats: a bundle with lost_events on each CPU that lost events
#     (ftrace_cpu_has_data_loss), and FtraceStats end - start overrun = the lost count
#     (ftrace_cpu_overrun_delta), both 0 on a lossless trace;
#   - a ClockSnapshot with BOOTTIME (the primary clock) and REALTIME; SystemInfo;
#   - process tree: a process's pid is its main thread's tid, every thread's tgid a process,
#     every tid in a sched event is in the tree (or 0, idle);
#   - message flows (track events): every track event's track is described, a thread track
#     has the tree's pid and tid, every flow id has at least two points (no start-only flow)
#     and nothing after its terminating point;
#   - instants with args (user events, faults: track_event_parser.cc and
#     util/debug_annotation_parser.cc): an instant has a name; each debug annotation has a name
#     (else "Debug annotation without name") and one value of a type the parser takes;
#   - counters (track_event_parser.cc): a TYPE_COUNTER event with counter_value on a track
#     with a CounterDescriptor, nothing else on such a track;
#   - slices (track_event_parser.cc, slice_tracker.cc; the UI's function graph): events of a
#     track taken in time order (a stable sort, as the sorter keeps packets of equal time), a
#     begin has a name, an end closes the track's innermost open slice (else
#     misplaced_end_event), none is left open; -f N: N slices expected;
#   - perf samples and their callstacks (importers/proto/profile_module.cc,
#     stack_profile_sequence_state.cc): a sequence's interned data is used only after a packet
#     of it said its incremental state was cleared, and only on that sequence; iids are
#     non-zero and unique per kind; a frame names a defined function name and mapping, a
#     mapping a defined path, a callstack defined frames; a sample has a timestamp, a defined
#     callstack and the process tree's pid and tid (or 0, idle). -s N: N samples expected.
# Scenario checks (kevscen): one sched_switch per RUNNING event, the worker's CPU time from
# the sched_switch sequence, interrupts, names.
# usage: check_perfetto.py [-l LOST] [-b BOOT_EPOCH_S] [-d OUT] [-k OUT] [-v OUT] [-f SLICES]
#                          [-s SAMPLES] [-c TID] FILE [EXPECT-FILE RUNNING-EVENTS]
# (prints TAP lines, no plan). -l: the .kev's lost-event total; -b: its BOOT_DATE in seconds;
# -d: write every instant with args as a JSON line {"ts", "tid", "name", "cat", "args"} to OUT
# (tid: the thread track's, from its TrackDescriptor); -k: every kernel-call slice as a JSON
# line {"ts", "name", "args", "end_args"} (its begin's and its end's annotations) to OUT;
# -v: write the decoded trace, named by this reader's field numbers (VIEW_NAMES), as JSON to OUT
# (check_perfetto_protoc.py compares it with protoc's decode by Perfetto's schema).
import sys
from wake_target import wake_targets
from tap_check import check, exit_status

args = sys.argv[1:]
want_lost = want_boot = comm_tid = None
want_samples = None
want_slices = None
dump_path = None
kcall_path = None
view_path = None
while args and args[0] in ("-l", "-b", "-c", "-s", "-d", "-f", "-k", "-v"):
    if args[0] == "-v":
        view_path = args[1]
    elif args[0] == "-k":
        kcall_path = args[1]
    elif args[0] == "-f":
        want_slices = int(args[1])
    elif args[0] == "-l":
        want_lost = int(args[1])
    elif args[0] == "-d":
        dump_path = args[1]
    elif args[0] == "-s":
        want_samples = int(args[1])
    elif args[0] == "-c":  # -c TID: print "# comm TID NAME TS" when TID's next_comm changes
        comm_tid = int(args[1])
    else:
        want_boot = int(args[1])
    args = args[2:]
sys.argv = [sys.argv[0]] + args
path = sys.argv[1]
full = len(sys.argv) > 3


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
            if wt != 1:
                raise ValueError("unexpected wire type %d" % wt)
            v, i = b[i:i + 8], i + 8
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

# The names this reader gives the field numbers it reads (kev2perfetto's comment lists the same
# numbers): a view of the trace by them, for a comparison with protoc's decode by Perfetto's own
# schema (test/tools/perfetto_subset.proto), where a number read here under a wrong name shows.
VIEW_NAMES = {
    "packet": {1: "ftrace_events", 2: "process_tree", 6: "clock_snapshot", 11: "track_event",
               12: "interned_data", 34: "ftrace_stats", 45: "system_info", 60: "track_descriptor",
               66: "perf_sample"},
    "ftrace": {4: "sched_switch", 17: "sched_wakeup", 20: "sched_waking", 36: "irq_handler_entry",
               37: "irq_handler_exit"},
    "sched_switch": {1: "prev_comm", 2: "prev_pid", 3: "prev_prio", 4: "prev_state",
                     5: "next_comm", 6: "next_pid", 7: "next_prio"},
    "sched_waking": {1: "comm", 2: "pid", 3: "prio", 4: "success", 5: "target_cpu"},
    "irq_handler_entry": {1: "irq", 2: "name"},
    "irq_handler_exit": {1: "irq", 2: "ret"},
    "type": {1: "TYPE_SLICE_BEGIN", 2: "TYPE_SLICE_END", 3: "TYPE_INSTANT", 4: "TYPE_COUNTER"},
    "unit": {0: "UNIT_UNSPECIFIED", 1: "UNIT_TIME_NS", 2: "UNIT_COUNT", 3: "UNIT_SIZE_BYTES"},
    "value": {2: "bool_value", 3: "uint_value", 4: "int_value", 6: "string_value",
              7: "pointer_value"},
    "phase": {1: "START_OF_TRACE", 2: "END_OF_TRACE"},
    "clock": {1: "BUILTIN_CLOCK_REALTIME", 6: "BUILTIN_CLOCK_BOOTTIME"},
    "interned": {5: "function_names", 6: "frames", 7: "callstacks", 17: "mapping_paths",
                 19: "mappings"},
}
SIGNED = {"prev_pid", "prev_prio", "prev_state", "next_pid", "next_prio", "pid", "prio",
          "success", "target_cpu", "irq", "ret"}  # int32/int64 fields of the ftrace events


def text(v):
    return v.decode() if isinstance(v, bytes) else v


def view_of(decoded):
    """The trace as check_perfetto_protoc.py's view: a list per kind of record, in file order."""
    N = VIEW_NAMES
    v = {k: [] for k in ("packets", "ftrace", "track_events", "descriptors", "processes",
                         "threads", "clocks", "stats", "system", "samples", "interned")}
    for pkt in decoded:
        d = dict(pkt)
        kinds = sorted(N["packet"].get(f, str(f)) for f, _ in pkt if f not in (8, 10, 13))
        v["packets"].append([d.get(8), d.get(10), d.get(13), kinds])
        if 1 in d:
            b = dict(fields(d[1]))
            for f, ev in fields(d[1]):
                if f != 2:
                    continue
                e = fields(ev)
                for k, sub in e:
                    if k in (1, 2):
                        continue
                    kn = N["ftrace"].get(k, str(k))
                    names = N.get(kn, {})
                    sf = {names.get(x, str(x)): (sint(y) if names.get(x) in SIGNED else text(y))
                          for x, y in fields(sub)}
                    v["ftrace"].append([b.get(1, 0), bool(b.get(3)), dict(e).get(1),
                                        dict(e).get(2), kn, sf])
        if 11 in d:
            te = fields(d[11])
            ted = dict(te)
            args = []
            for f, a in te:
                if f == 4:
                    af = fields(a)
                    name = text(dict(af).get(10))
                    for k, x in af:
                        if k != 10:
                            kn = N["value"].get(k, str(k))
                            args.append([name, kn, sint(x) if kn == "int_value" else
                                         bool(x) if kn == "bool_value" else text(x)])
            flows = [[("terminating_flow_ids" if f == 48 else "flow_ids"),
                      int.from_bytes(x, "little")] for f, x in te if f in (47, 48)]
            v["track_events"].append([d.get(8), d.get(10), ted.get(11),
                                      N["type"].get(ted.get(9), ted.get(9)),
                                      [text(x) for f, x in te if f == 22], text(ted.get(23)),
                                      args, flows, sint(ted[30]) if 30 in ted else None])
        if 60 in d:
            td = dict(fields(d[60]))
            th = dict(fields(td[4])) if 4 in td else {}
            cd = dict(fields(td[8])) if 8 in td else None
            v["descriptors"].append([td.get(1), td.get(5), text(td.get(2)),
                                     sint(th[1]) if 1 in th else None,
                                     sint(th[2]) if 2 in th else None, text(th.get(5)),
                                     None if cd is None else [N["unit"].get(cd.get(3), cd.get(3))]])
        if 2 in d:
            for f, x in fields(d[2]):
                xd = dict(fields(x))
                if f == 1:
                    v["processes"].append([sint(xd.get(1, 0)), sint(xd.get(2, 0)),
                                           [text(c) for k, c in fields(x) if k == 3]])
                else:
                    v["threads"].append([sint(xd.get(1, 0)), text(xd.get(2)),
                                         sint(xd.get(3, 0))])
        if 6 in d:
            for f, x in fields(d[6]):
                if f == 1:
                    xd = dict(fields(x))
                    v["clocks"].append([xd.get(1), xd.get(2)])
                elif f == 2:
                    v["clocks"].append(["primary", N["clock"].get(x, x)])
        if 34 in d:
            st = fields(d[34])
            ph = N["phase"].get(dict(st).get(1), dict(st).get(1))
            for f, x in st:
                if f == 2:
                    xd = dict(fields(x))
                    v["stats"].append([ph, xd.get(1), xd.get(3)])
        if 45 in d:
            si = dict(fields(d[45]))
            u = dict(fields(si[1])) if 1 in si else {}
            v["system"].append([text(u.get(k)) for k in (1, 2, 3, 4)] + [si.get(8)])
        if 66 in d:
            sd = dict(fields(d[66]))
            v["samples"].append([d.get(8), d.get(10)] + [sd.get(k) for k in (1, 2, 3, 4)])
        if 12 in d:
            for f, x in fields(d[12]):
                xf = fields(x)
                v["interned"].append([d.get(10), N["interned"].get(f, str(f)),
                                      dict(xf).get(1), len(xf)])
    return v


if view_path:
    import json
    with open(view_path, "w") as out:
        # (a field of another wire type than this reader expects stays raw bytes)
        json.dump(view_of(decoded), out, default=lambda b: "bytes " + b.hex())

events = []  # (cpu, ts, pid, kind, fields)
procs, threads = {}, {}
ok_seq = True
lost_bundles = {}  # cpu -> bundles with lost_events
stats = {}  # phase -> {cpu: overrun}
clocks, primary, sysinfo = {}, None, None
ppids = {}
descr = {}  # track uuid -> (pid, tid) or None for a non-thread track
flowpts = {}  # flow id -> [(ts, terminating)]
tevents = []
instants = []  # (ts, TrackEvent fields) of instants (type 3) with debug annotations
slicepts = []  # (ts, packet index, TrackEvent fields) of slice begins and ends (types 1, 2)
counter_tracks, parents = set(), {}  # tracks with a CounterDescriptor; track -> parent track
counterpts = []  # (ts, TrackEvent fields) of counter values, and of any event on a counter track
for pkt in decoded:
    d = dict(pkt)
    ok_seq &= 10 in d
    if 6 in d:
        for f, v in fields(d[6]):
            if f == 1:
                x = dict(fields(v))
                clocks[x.get(1)] = x.get(2, 0)
            elif f == 2:
                primary = v
    if 45 in d:
        sysinfo = dict(fields(d[45]))
    if 60 in d:
        td = dict(fields(d[60]))
        th = dict(fields(td[4])) if 4 in td else None
        descr[td.get(1)] = (sint(th.get(1, 0)), sint(th.get(2, 0))) if th else None
        if 8 in td:
            counter_tracks.add(td.get(1))
        if 5 in td:
            parents[td.get(1)] = td[5]
    if 11 in d:
        te = fields(d[11])
        tevents.append((d.get(8, 0), dict(te).get(11)))
        if dict(te).get(9) == 4 or 30 in dict(te) or dict(te).get(11) in counter_tracks:
            counterpts.append((d.get(8, 0), te))
        elif dict(te).get(9) in (1, 2):
            slicepts.append((d.get(8, 0), len(tevents), te))
        elif any(f == 4 for f, _ in te):
            instants.append((d.get(8, 0), te))
        for f, v in te:
            if f in (47, 48):
                flowpts.setdefault(int.from_bytes(v, "little") if isinstance(v, bytes) else v,
                                   []).append((d.get(8, 0), f == 48))
    if 34 in d:
        st = fields(d[34])
        ph = dict(st).get(1)
        stats[ph] = {}
        for f, v in st:
            if f == 2:
                x = dict(fields(v))
                stats[ph][x.get(1, 0)] = x.get(3, 0)
    if 1 in d:
        bundle = fields(d[1])
        cpu = dict(bundle).get(1, 0)
        if dict(bundle).get(3):
            lost_bundles[cpu] = lost_bundles.get(cpu, 0) + 1
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
                ppids[sint(x[1])] = sint(x.get(2, 0))
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

# ---- trace processor's import rules ----
SWITCH, WAKING, WAKEUP, IRQ_IN, IRQ_OUT = 4, 20, 17, 36, 37
cur = {}  # cpu -> current tid (last switch's next_pid)
asleep = set()  # tids switched out with a sleeping state and not woken since
mismatch = nowake = badpid = badprio = 0
detail_mm = detail_nw = detail_pid = None
for cpu, ts, pid, kind, f in sorted(events, key=lambda e: (e[1], e[0])):
    if cpu in cur and sint(pid) != cur[cpu]:
        badpid += 1
        detail_pid = detail_pid or (cpu, ts, sint(pid), cur[cpu], kind)
    if kind == SWITCH:
        prev, nxt, st = sint(f.get(2, 0)), sint(f.get(6, 0)), sint(f.get(4, 0))
        if cpu in cur and prev != cur[cpu]:
            mismatch += 1
            detail_mm = detail_mm or (cpu, ts, prev, cur[cpu])
        if nxt != 0 and nxt in asleep:
            nowake += 1
            detail_nw = detail_nw or (cpu, ts, nxt)
        asleep.discard(nxt)
        if prev != 0 and st not in (0,) and not st & 0x40:
            asleep.add(prev)
        for tid, pr in ((prev, sint(f.get(3, 0))), (nxt, sint(f.get(7, 0)))):
            if (tid == 0 and pr != 120) or (tid != 0 and not (0 <= pr < 100 or pr == 120)):
                badprio += 1
        cur[cpu] = nxt
    elif kind == WAKING:
        asleep.discard(sint(f.get(2, 0)))
# The run queue a wake-up names (sched_waking.target_cpu): trace processor draws the woken
# thread's runnable slice there (wake_target.py's rule).
SEQ = sorted(events, key=lambda e: (e[1], e[3] != WAKING))
wakings = sum(1 for e in SEQ if e[3] == WAKING)
badtarget, pulled, first = wake_targets(
    [(cpu, "switch", sint(f.get(6, 0)), None) if kind == SWITCH else
     (cpu, "waking", sint(f.get(2, 0)), sint(f.get(5, 0))) if kind == WAKING else (cpu, "", 0, None)
     for cpu, ts, pid, kind, f in SEQ])
detail_tg = None
if first:
    cpu, ts, pid, kind, f = SEQ[first[0]]
    detail_tg = (ts, sint(f.get(2, 0)), "target", sint(f.get(5, 0)), "runs on", first[1],
                 "waker's CPU", cpu)
check("importer: sched_waking's target_cpu is the CPU the thread runs on next, or the queue of "
      "the CPU it last ran on when another CPU pulled it (wrong: %d of %d; pulled or unknown: %d)"
      % (badtarget, wakings, pulled), badtarget == 0, detail_tg)
if comm_tid is not None:
    last = None
    for cpu, ts, pid, kind, f in sorted(events, key=lambda e: (e[1], e[0])):
        if kind == SWITCH and sint(f.get(6, 0)) == comm_tid and f.get(5) != last:
            last = f.get(5)
            print("# comm %d %s %d" % (comm_tid, last.decode(), ts))
check("importer: sched_switch prev_pid continues the CPU's last next_pid (mismatched: %d)"
      % mismatch, mismatch == 0, detail_mm)
check("importer: every thread switched in after sleeping had a sched_waking (missing: %d)"
      % nowake, nowake == 0, detail_nw)
check("importer: FtraceEvent.pid is the CPU's current thread (wrong: %d)" % badpid,
      badpid == 0, detail_pid)
check("importer: no sched_wakeup (trace processor's thread state reads sched_waking)",
      not any(e[3] == WAKEUP for e in events))
check("importer: priorities as Linux's (real-time < 100, idle or unknown 120; wrong: %d)" % badprio,
      badprio == 0)
overrun = {c: stats.get(2, {}).get(c, 0) - stats.get(1, {}).get(c, 0) for c in stats.get(2, {})}
check("importer: FtraceStats at start and end", 1 in stats and 2 in stats, sorted(stats))
if want_lost is not None:
    check("importer: loss reaches ftrace_cpu_overrun_delta (%d lost)" % want_lost,
          sum(overrun.values()) == want_lost, overrun)
    lossy = sorted(c for c, v in overrun.items() if v > 0)
    check("importer: ftrace_cpu_has_data_loss on the CPUs that lost events (%s)"
          % ",".join(map(str, lossy)),
          sorted(lost_bundles) == lossy and bool(lost_bundles) == (want_lost > 0), (lost_bundles, lossy))
check("importer: ClockSnapshot with BOOTTIME (primary) and REALTIME",
      6 in clocks and 1 in clocks and primary == 6, (clocks, primary))
if want_boot is not None:
    check("importer: REALTIME at boot is the header's BOOT_DATE (%d s)" % want_boot,
          clocks.get(1) == want_boot * 10**9 and clocks.get(6) == 0, clocks)
check("importer: SystemInfo with utsname and CPU count",
      sysinfo is not None and 1 in sysinfo and 8 in sysinfo, sysinfo)
mains = [tid for tid, (name, tgid) in threads.items() if tid == tgid]
check("importer: a process's pid is its main thread's tid",
      all(p in threads and threads[p][1] == p for p in procs if any(
          tg == p for n, tg in threads.values())), (procs, threads))
check("importer: every thread's tgid is a process", all(tg in procs for n, tg in threads.values()))
check("importer: every parent is a process (or 0)",
      all(pp == 0 or pp in procs for pp in ppids.values()), ppids)
seen = {sint(f.get(k, 0)) for c, t, p, kd, f in events if kd in (SWITCH, WAKING)
        for k in ((2, 6) if kd == SWITCH else (2,))}
check("importer: every tid in sched events is in the process tree (or 0)",
      all(t == 0 or t in threads for t in seen), sorted(t for t in seen if t and t not in threads))
check("importer: every track event is on a described track (%d events)" % len(tevents),
      all(u in descr for t, u in tevents), [u for t, u in tevents if u not in descr][:5])
check("importer: thread tracks have the process tree's pid and tid",
      all(v is None or v[1] == 0 or (v[1] in threads and threads[v[1]][1] == v[0])
          for v in descr.values()), [v for v in descr.values() if v and v[1] and v[1] not in threads][:5])
# debug annotations: DebugAnnotation name 10 (or interned name_iid 1), one value among
# bool 2, uint 3, int 4, double 5, string 6, pointer 7, nested 8, legacy JSON 9, dict 11, array 12
VALUES = (2, 3, 4, 5, 6, 7, 8, 9, 11, 12)
bad_args, dumped = [], []
for ts, te in instants:
    ted = dict(te)
    name = ted.get(23)
    if ted.get(9) != 3 or not name:
        bad_args.append(("an instant without its type or name", ts))
    args = {}
    for f, v in te:
        if f != 4:
            continue
        a = fields(v)
        ad = dict(a)
        nvals = [f2 for f2, _ in a if f2 in VALUES]
        if 10 not in ad and 1 not in ad:
            bad_args.append(("Debug annotation without name", ts))
        elif len(nvals) != 1:
            bad_args.append(("an annotation with %d values" % len(nvals), ts))
        else:
            val = sint(ad[4]) if nvals[0] == 4 else ad[nvals[0]]   # (int_value: int64)
            args[ad.get(10, b"").decode()] = val.decode() if isinstance(val, bytes) else val
    tid = (descr.get(ted.get(11)) or (None, None))[1]
    dumped.append({"ts": ts, "tid": tid, "name": name.decode() if name else None,
                   "cat": [v.decode() for f, v in te if f == 22], "args": args})
check("importer: %d instants with args, each named, each annotation named with one value"
      % len(instants), not bad_args, bad_args[:3])
if dump_path:
    import json
    with open(dump_path, "w") as out:
        for x in dumped:
            out.write(json.dumps(x) + "\n")
# slices: per track in time order (stable), begins named, ends closing the innermost open one
# (kernel calls, category "kcall", are counted apart from the function slices -f counts)
def annotations(te):
    """A TrackEvent's debug annotations by name (the first value of each)."""
    out = {}
    for f, v in te:
        if f == 4:
            ad = dict(fields(v))
            k = next((k for k in VALUES if k in ad), None)
            val = sint(ad[k]) if k == 4 else ad.get(k)
            out[ad.get(10, b"").decode()] = val.decode() if isinstance(val, bytes) else val
    return out


open_on, bad_slices, nslices, nkcalls, kslices, nstates = {}, [], 0, 0, [], 0
for ts, i, te in sorted(slicepts, key=lambda x: (x[0], x[1])):
    ted = dict(te)
    stack = open_on.setdefault(ted.get(11), [])
    if ted.get(9) == 1:
        if not ted.get(23):
            bad_slices.append(("a slice begin without a name", ts))
        stack.append((ted.get(22), ts, ted.get(23), te))
    elif not stack:
        bad_slices.append(("misplaced_end_event", ts))
    else:
        cat, t0, name, begin = stack.pop()
        if cat == b"thread_state":
            nstates += 1
        elif cat == b"kcall":
            nkcalls += 1
            kslices.append({"ts": t0, "name": name.decode() if name else None,
                            "args": annotations(begin), "end_args": annotations(te)})
        else:
            nslices += 1
if kcall_path:
    import json
    with open(kcall_path, "w") as out:
        for x in kslices:
            out.write(json.dumps(x) + "\n")
left = sum(len(v) for v in open_on.values())
check("importer: %d function, %d thread-state and %d kernel-call slices, each begin named, each "
      "end closing its track's innermost slice, none left open" % (nslices, nstates, nkcalls),
      not bad_slices and not left, (bad_slices[:3], left))
if want_slices is not None:
    check("%d slices, as many as expected" % want_slices, nslices == want_slices, nslices)
# counters (track_event_parser.cc): a TYPE_COUNTER event is on a track with a CounterDescriptor
# and carries counter_value; a counter track holds nothing else; a thread's counter track is
# a child of a thread track
badcount = [(ts, dict(te).get(11)) for ts, te in counterpts
            if dict(te).get(9) != 4 or 30 not in dict(te) or dict(te).get(11) not in counter_tracks]
orphan = [u for u in counter_tracks if u in parents and not descr.get(parents[u])]
check("importer: %d counter values on %d counter tracks, each of TYPE_COUNTER with a value, "
      "nothing else on those tracks, a child track's parent a thread's"
      % (len(counterpts), len(counter_tracks)), not badcount and not orphan,
      (badcount[:3], orphan[:3]))
badflow = [k for k, p in flowpts.items() if len(p) < 2 or any(term for ts, term in sorted(p)[:-1])]
check("importer: message flows have two points or more, terminated last (%d flows)" % len(flowpts),
      not badflow, badflow[:5])

# ---- perf samples and their callstacks ----
seqs = {}  # sequence id -> {"cleared": bool, kind: {iid: message fields}}
samples, bad_use, bad_iid = [], [], []
KINDS = {5: "function_names", 6: "frames", 7: "callstacks", 17: "mapping_paths", 19: "mappings"}
for pkt in decoded:
    d = dict(pkt)
    seq, flags = d.get(10), d.get(13, 0)
    if 12 not in d and 66 not in d:
        continue
    st = seqs.setdefault(seq, {"cleared": False})
    if flags & 1:
        st.clear()
        st["cleared"] = True
    if 12 in d:
        if not st["cleared"]:
            bad_use.append(("interned data before the state was cleared", seq))
        for f, v in fields(d[12]):
            if f in KINDS:
                x = fields(v)
                iid = dict(x).get(1, 0)
                tab = st.setdefault(f, {})
                if iid == 0 or iid in tab:
                    bad_iid.append((KINDS[f], iid))
                tab[iid] = x
    if 66 in d:
        if not st["cleared"]:
            bad_use.append(("a sample before the state was cleared", seq))
        samples.append((d.get(8), seq, dict(fields(d[66]))))
check("importer: interned data and samples only on a sequence whose state was cleared",
      not bad_use, bad_use[:3])
check("importer: interned iids are non-zero and unique per kind", not bad_iid, bad_iid[:5])
undefined = []
for seq, st in seqs.items():
    for iid, x in st.get(6, {}).items():  # frames -> function names, mappings
        xd = dict(x)
        if xd.get(2) not in st.get(5, {}) or xd.get(3) not in st.get(19, {}):
            undefined.append(("frame", iid))
    for iid, x in st.get(19, {}).items():  # mappings -> paths
        if any(f == 7 and v not in st.get(17, {}) for f, v in x) or 7 not in dict(x):
            undefined.append(("mapping", iid))
    for iid, x in st.get(7, {}).items():  # callstacks -> frames
        fr = [v for f, v in x if f == 2]
        if not fr or any(v not in st.get(6, {}) for v in fr):
            undefined.append(("callstack", iid))
check("importer: frames, mappings and callstacks name only defined entries", not undefined,
      undefined[:5])
badsmp = [s for s in samples if s[0] is None or s[2].get(4) not in seqs[s[1]].get(7, {}) or
          not (s[2].get(3, 0) == 0 or (sint(s[2][3]) in threads and
                                       threads[sint(s[2][3])][1] == sint(s[2].get(2, 0))))]
check("importer: %d perf samples, each with a timestamp, a defined callstack and the tree's "
      "pid and tid" % len(samples), not badsmp, badsmp[:3])
if want_samples is not None:
    check("%d perf samples, as expected" % want_samples, len(samples) == want_samples, len(samples))
if not full:
    exit_status()
R = int(exp["rounds"][0])
running = int(sys.argv[3])
sw = [e for e in events if e[3] == 4]
check("one sched_switch per RUNNING event (%d)" % running, len(sw) == running, len(sw))
check("first switch at %d ns (the first round, 1 MHz clock)" % 2000000, sw and sw[0][1] == 2000000,
      sw[0][1] if sw else None)
worker = [tid for tid, (name, tgid) in threads.items() if name == "worker" and tid == tgid]
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
check("QNX priority 10 is real-time kernel prio 89 (client), 20 is 79 (server)",
      any(sint(f[2]) == 2001 and sint(f[3]) == 89 for c, t, p, k, f in sw) and
      any(sint(f[6]) == 3001 and sint(f[7]) == 79 for c, t, p, k, f in sw))
check("the idle thread is tid 0 (swapper)", any(sint(f[6]) == 0 and f[5] == b"swapper" for c, t, p, k, f in sw))
wk = [e for e in events if e[3] == WAKING]
check("sched_waking events", len(wk) >= R, len(wk))
irq = [e for e in events if e[3] == 36 and e[4].get(1) == 5]
check("%d irq_handler_entry for irq 5" % R, len(irq) == R, len(irq))
check("%d irq_handler_exit" % R, len([e for e in events if e[3] == 37]) == R)
check("process tree names the processes",
      {"client", "server", "driver", "worker"} <= set(procs.values()), procs)
check("threads belong to their process (tgid = pid * 1000 + 1)",
      all(tgid in procs for name, tgid in threads.values()), threads)
exit_status()
