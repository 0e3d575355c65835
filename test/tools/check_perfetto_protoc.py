#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# An independent decode of kev2perfetto's output: Debian's protoc reads it by Perfetto's own
# names and numbers (test/tools/perfetto_subset.proto, Perfetto's schema for the messages
# kev2perfetto writes), and this compares protoc's text with check_perfetto.py's view (-v, its
# own wire-format reader's, naming the numbers as it believes them). Both are written by this
# project, so each checks the other against the schema: the same packets with the same kinds,
# every ftrace event with the same fields and values, every track event with the same track,
# type, name, categories, flows and debug annotations (names, value types, values), the same
# track descriptors, process tree, clocks, statistics, system info, perf samples and interned
# entries; and no field protoc cannot name (a number or wire type Perfetto's schema does not
# give it: a bug in kev2perfetto, or a field the subset lacks). Prints TAP lines, no plan.
# -d OUT, -k OUT: write the instants with args and the kernel-call slices, as protoc decoded
# them, in check_perfetto.py -d's and -k's JSON lines (check_event_table.py reads them).
# -c OUT: write every counter value ({"kind": "counter", "track": its track's name, "tid": the
# thread track it is under or null, "ts", "value"}) and every thread-state slice ({"kind":
# "state", "tid", "name", "ts", "end", "args", "end_args"}) as JSON lines
# (check_perfetto_states.py holds them against traceprinter's events).
# usage: check_perfetto_protoc.py [-d OUT] [-k OUT] [-c OUT] PROTO FILE.pftrace VIEW.json
# (PROTO: the schema, e.g. test/tools/perfetto_subset.proto; VIEW.json: check_perfetto.py -v's;
#  the protoc run is $PROTOC, else protoc on PATH)
import json
import os
import re
import subprocess
import sys
from tap_check import check, exit_status

args = sys.argv[1:]
dump_path = kcall_path = counter_path = None
while args and args[0] in ("-d", "-k", "-c") and len(args) > 1:
    if args[0] == "-d":
        dump_path = args[1]
    elif args[0] == "-c":
        counter_path = args[1]
    else:
        kcall_path = args[1]
    args = args[2:]
if len(args) != 3 or args[0] in ("-h", "--help"):
    print("usage: check_perfetto_protoc.py [-d OUT] [-k OUT] [-c OUT] PROTO FILE.pftrace VIEW.json",
          file=sys.stderr)
    sys.exit(2)
proto, trace, view_path = args


# ---- protoc's text format, parsed: a message is a list of (name, value) in protoc's order ----
ESC = {"n": 10, "r": 13, "t": 9, '"': 34, "'": 39, "\\": 92, "a": 7, "b": 8, "f": 12, "v": 11,
       "?": 63}


def unquote(s):
    """A text-format string literal (C escapes, octal and hex bytes) as str."""
    if len(s) < 2 or s[0] != '"' or s[-1] != '"':
        raise ValueError("not a string literal: %r" % s)
    out, i, s = bytearray(), 0, s[1:-1]
    while i < len(s):
        c = s[i]
        if c != "\\":
            out += c.encode()
            i += 1
            continue
        c = s[i + 1]
        if c in ESC:
            out.append(ESC[c])
            i += 2
        elif c in "01234567":
            m = re.match(r"[0-7]{1,3}", s[i + 1:])
            out.append(int(m.group(0), 8) & 0xff)
            i += 1 + len(m.group(0))
        elif c == "x":
            m = re.match(r"[0-9a-fA-F]{1,2}", s[i + 2:])
            out.append(int(m.group(0), 16))
            i += 2 + len(m.group(0))
        else:
            raise ValueError("unknown escape \\%s" % c)
    return out.decode()


def scalar(s):
    if s.startswith('"'):
        return unquote(s)
    if s in ("true", "false"):
        return s == "true"
    if re.fullmatch(r"-?\d+", s):
        return int(s)
    if re.fullmatch(r"-?[\d.]+(e[-+]?\d+)?|-?inf|nan", s):
        return float(s)
    return s  # an enum value's name


OPEN = re.compile(r"^([A-Za-z_]\w*|\d+) \{$")
FIELD = re.compile(r"^([A-Za-z_]\w*|\d+): (.*)$")


def parse(text):
    root = []
    stack = [root]
    for ln, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s:
            continue
        m = OPEN.match(s)
        if m:
            node = []
            stack[-1].append((m.group(1), node))
            stack.append(node)
        elif s == "}" and len(stack) > 1:
            stack.pop()
        else:
            m = FIELD.match(s)
            if not m:
                raise ValueError("line %d: %r" % (ln, s[:80]))
            stack[-1].append((m.group(1), scalar(m.group(2))))
    if len(stack) != 1:
        raise ValueError("an unclosed message")
    return root


def get(msg, key, default=None):
    for k, v in msg:
        if k == key:
            return v
    return default


def every(msg, key):
    return [v for k, v in msg if k == key]


def unknown(msg, path, out):
    """Fields protoc could not name (bare numbers), with their paths."""
    for k, v in msg:
        if k.isdigit():
            out.append("%s.%s" % (path, k))
        elif isinstance(v, list):
            unknown(v, path + "." + k, out)


protoc = os.environ.get("PROTOC", "protoc")
try:
    with open(trace, "rb") as f:
        run = subprocess.run([protoc, "-I", os.path.dirname(os.path.abspath(proto)),
                              "--decode=perfetto.protos.Trace", os.path.basename(proto)],
                             stdin=f, capture_output=True)
except OSError as err:
    check("protoc decodes the trace by Perfetto's schema", False,
          "%s (install Debian's protobuf-compiler: scripts/setup.sh --test)" % err)
    sys.exit(1)
if run.returncode != 0:
    check("protoc decodes the trace by Perfetto's schema", False,
          run.stderr.decode(errors="replace").strip())
    sys.exit(1)
try:
    top = parse(run.stdout.decode())
except (ValueError, UnicodeDecodeError) as err:
    check("protoc's decode parses as text format", False, err)
    sys.exit(1)
packets = every(top, "packet")
check("protoc decodes the trace by Perfetto's schema: %d packets" % len(packets),
      len(packets) > 0 and all(k == "packet" for k, _ in top))
bare = []
unknown(top, "Trace", bare)
check("protoc names every field kev2perfetto writes (none unknown to Perfetto's schema or of "
      "another wire type)", not bare, sorted(set(bare))[:10])

# ---- protoc's decode as check_perfetto.py's view (check_perfetto.py view_of) ----
DATA = ("ftrace_events", "process_tree", "clock_snapshot", "track_event", "interned_data",
        "ftrace_stats", "system_info", "track_descriptor", "perf_sample")
FTRACE = ("sched_switch", "sched_wakeup", "sched_waking", "irq_handler_entry", "irq_handler_exit")
VALUES = ("bool_value", "uint_value", "int_value", "double_value", "string_value",
          "pointer_value")
v = {k: [] for k in ("packets", "ftrace", "track_events", "descriptors", "processes",
                     "threads", "clocks", "stats", "system", "samples", "interned")}
for p in packets:
    kinds = sorted(k for k, _ in p if k not in ("timestamp", "trusted_packet_sequence_id",
                                                "sequence_flags"))
    seq = get(p, "trusted_packet_sequence_id")
    v["packets"].append([get(p, "timestamp"), seq, get(p, "sequence_flags"), kinds])
    b = get(p, "ftrace_events")
    if b is not None:
        for e in every(b, "event"):
            for k, sub in e:
                if k not in ("timestamp", "pid"):
                    v["ftrace"].append([get(b, "cpu", 0), bool(get(b, "lost_events", False)),
                                        get(e, "timestamp"), get(e, "pid"), k,
                                        dict(sub) if isinstance(sub, list) else sub])
    te = get(p, "track_event")
    if te is not None:
        args = []
        for a in every(te, "debug_annotations"):
            name = get(a, "name")
            args += [[name, k, x] for k, x in a if k != "name"]
        flows = [[k, x] for k, x in te if k in ("flow_ids", "terminating_flow_ids")]
        v["track_events"].append([get(p, "timestamp"), seq, get(te, "track_uuid"),
                                  get(te, "type"), every(te, "categories"), get(te, "name"),
                                  args, flows, get(te, "counter_value")])
    td = get(p, "track_descriptor")
    if td is not None:
        th = get(td, "thread", [])
        cd = get(td, "counter")
        v["descriptors"].append([get(td, "uuid"), get(td, "parent_uuid"), get(td, "name"),
                                 get(th, "pid"), get(th, "tid"), get(th, "thread_name"),
                                 None if cd is None else [get(cd, "unit")]])
    tree = get(p, "process_tree")
    if tree is not None:
        for x in every(tree, "processes"):
            v["processes"].append([get(x, "pid", 0), get(x, "ppid", 0), every(x, "cmdline")])
        for x in every(tree, "threads"):
            v["threads"].append([get(x, "tid", 0), get(x, "name"), get(x, "tgid", 0)])
    snap = get(p, "clock_snapshot")
    if snap is not None:
        for k, x in snap:
            if k == "clocks":
                v["clocks"].append([get(x, "clock_id"), get(x, "timestamp")])
            elif k == "primary_trace_clock":
                v["clocks"].append(["primary", x])
    st = get(p, "ftrace_stats")
    if st is not None:
        for x in every(st, "cpu_stats"):
            v["stats"].append([get(st, "phase"), get(x, "cpu"), get(x, "overrun")])
    si = get(p, "system_info")
    if si is not None:
        u = get(si, "utsname", [])
        v["system"].append([get(u, k) for k in ("sysname", "version", "release", "machine")] +
                           [get(si, "num_cpus")])
    ps = get(p, "perf_sample")
    if ps is not None:
        v["samples"].append([get(p, "timestamp"), seq] +
                            [get(ps, k) for k in ("cpu", "pid", "tid", "callstack_iid")])
    idata = get(p, "interned_data")
    if idata is not None:
        for k, x in idata:
            v["interned"].append([seq, k, get(x, "iid"), len(x)])

# ---- the comparison ----
try:
    ref = json.load(open(view_path))
except (OSError, ValueError) as err:
    check("check_perfetto.py's view reads", False, err)
    sys.exit(1)
# protoc prints a message's fields by number, repeated ones in their order: the flows of an
# event and the interned entries of a packet are compared as sets of equal members.
for x in v["track_events"] + ref["track_events"]:
    x[7] = sorted(x[7])
v["interned"].sort(key=json.dumps)
ref["interned"].sort(key=json.dumps)
v = json.loads(json.dumps(v))  # (tuples and dict keys as JSON has them)


def first_difference(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return "#%d: protoc %s, check_perfetto.py %s" % (i, x, y)
    return "protoc %d, check_perfetto.py %d" % (len(a), len(b))


def count(rows, col):
    out = {}
    for r in rows:
        key = str(r[col])
        out[key] = out.get(key, 0) + 1
    return out


kinds = count([[" ".join(p[3])] for p in v["packets"]], 0)
check("same packets, same kinds in each (%s)" % ", ".join(
    "%s %d" % kv for kv in sorted(kinds.items())), v["packets"] == ref["packets"],
      first_difference(v["packets"], ref["packets"]))
fk = count(v["ftrace"], 4)
check("same ftrace events per kind (%s), each with the same fields and values" % ", ".join(
    "%s %d" % kv for kv in sorted(fk.items())), v["ftrace"] == ref["ftrace"],
      first_difference(v["ftrace"], ref["ftrace"]))
tk = count(v["track_events"], 3)
nargs = sum(len(x[6]) for x in v["track_events"])
nflows = sum(len(x[7]) for x in v["track_events"])
check("same track events per type (%s): track, name, categories, counter values, %d flow ids "
      "and %d debug annotations (name, value type, value)"
      % (", ".join("%s %d" % kv for kv in sorted(tk.items())), nflows, nargs),
      v["track_events"] == ref["track_events"],
      first_difference(v["track_events"], ref["track_events"]))
bad_value = [x for x in v["track_events"] for a in x[6] if a[0] is None or a[1] not in VALUES]
check("every debug annotation has a name and one value of Perfetto's types", not bad_value,
      bad_value[:2])
for key, what in (("descriptors", "track descriptors"), ("processes", "processes"),
                  ("threads", "threads"), ("clocks", "clocks"), ("stats", "FtraceStats"),
                  ("system", "SystemInfo"), ("samples", "perf samples"),
                  ("interned", "interned entries")):
    check("same %s (%d)" % (what, len(v[key])), v[key] == ref[key],
          first_difference(v[key], ref[key]))
missing = [k for p in v["packets"] for k in p[3] if k not in DATA]
check("every packet's data is a kind the schema names", not missing, missing[:5])
odd = [x[4] for x in v["ftrace"] if x[4] not in FTRACE]
check("every ftrace event is one the schema names", not odd, odd[:5])

# ---- protoc's decode in check_perfetto.py -d's and -k's forms, and -c's ----
if counter_path:
    track = {d[0]: d for d in v["descriptors"]}
    thread_of = {}  # track uuid -> the tid of the thread track it is (or is under)
    for d in v["descriptors"]:
        up = track.get(d[1])
        thread_of[d[0]] = d[4] if d[4] is not None else up[4] if up else None
    rows, open_state = [], {}
    for ts, seq, tr, typ, cats, name, anns, flows, value in sorted(
            v["track_events"], key=lambda x: x[0] or 0):
        named = dict((a, x) for a, kind, x in anns)
        if typ == "TYPE_COUNTER":
            rows.append({"kind": "counter", "track": track.get(tr, [None] * 3)[2],
                         "tid": thread_of.get(tr), "ts": ts, "value": value})
        elif typ == "TYPE_SLICE_BEGIN" and cats == ["thread_state"]:
            open_state[tr] = {"kind": "state", "tid": thread_of.get(tr), "name": name, "ts": ts,
                              "args": named}
        elif typ == "TYPE_SLICE_END" and tr in open_state:
            x = open_state.pop(tr)
            x.update(end=ts, end_args=named)
            rows.append(x)
    with open(counter_path, "w") as out:
        for x in rows:
            out.write(json.dumps(x) + "\n")
if dump_path or kcall_path:
    tid = {d[0]: d[4] for d in v["descriptors"]}
    inst = [{"ts": x[0], "tid": tid.get(x[2]), "name": x[5], "cat": x[4],
             "args": dict((a, val) for a, kind, val in x[6])}
            for x in v["track_events"] if x[3] == "TYPE_INSTANT" and x[6]]
    kcalls, open_on = [], {}
    order = sorted(range(len(v["track_events"])), key=lambda i: (v["track_events"][i][0] or 0, i))
    for i in order:
        ts, seq, track, typ, cats, name, anns, flows, value = v["track_events"][i]
        named = dict((a, x) for a, kind, x in anns)
        if typ == "TYPE_SLICE_BEGIN":
            open_on.setdefault(track, []).append((ts, name, cats, named))
        elif typ == "TYPE_SLICE_END" and open_on.get(track):
            t0, n0, c0, a0 = open_on[track].pop()
            if c0 == ["kcall"]:
                kcalls.append({"ts": t0, "name": n0, "args": a0, "end_args": named})
    for path, rows in ((dump_path, inst), (kcall_path, kcalls)):
        if path:
            with open(path, "w") as out:
                for x in rows:
                    out.write(json.dumps(x) + "\n")
exit_status()
