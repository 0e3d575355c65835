#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Checks that every consumer names every event of a kevscen "events" capture with every field
# and value kevscen wrote (its expect-* lines: the truth, chosen by the writer, not read back
# by the code under test). Prints TAP lines (no plan).
# usage: check_event_table.py EXPECT KEVTABLE.txt BABELTRACE2.txt KEV2JSON.json
#                             PERFETTO-INSTANTS.jsonl TRACEPRINTER.txt KEVSQL.csv LISTING.md
#                             [PERFETTO-KCALLS.jsonl]
# (KEVSQL.csv: "class,type,arg_set_id,key,value" rows of kevsql's event JOIN args; LISTING.md:
# kevtable's listing, which gives each name its class and number; PERFETTO-KCALLS.jsonl:
# check_perfetto.py -k's kernel-call slices)
import json
import re
import sys
from tap_check import check

kcalls_only = sys.argv[1] == "--kcalls"  # --kcalls KEVTABLE.txt BABELTRACE2.txt: those alone
if kcalls_only:
    expect, kevtable, bt2 = "/dev/null", sys.argv[2], sys.argv[3]
else:
    expect, kevtable, bt2, jsonf, pfinst, tp, sqlf, listing = sys.argv[1:9]
    pfkcalls = sys.argv[9] if len(sys.argv) > 9 else None
fields, texts, arrays, kcalls = {}, {}, {}, []
for line in open(expect):
    p = line.split()
    if not p:
        continue
    if p[0] == "expect-field":
        fields.setdefault(p[1], {})[p[2]] = int(p[3])
    elif p[0] == "expect-text":
        texts.setdefault(p[1], {})[p[2]] = p[3]
    elif p[0] == "expect-array":
        arrays.setdefault(p[1], {})[p[2]] = int(p[3])
    elif p[0] == "expect-kcall":
        kcalls.append(p[2]) if p[2] not in kcalls else None
names = sorted(set(fields) | set(texts) | set(arrays))


def as_int(v):
    if isinstance(v, (int, float)):
        return int(v)
    v = str(v).strip().strip('"')
    m = re.match(r'^\(\s*"[^"]*"\s*:\s*container\s*=\s*(\S+)\s*\)$', v)  # a CTF enum
    if m:
        v = m.group(1)
    v = re.sub(r"\s*\(.*\)$", "", v)
    return int(v, 0)


def compare(tool, name, got):
    """got: field -> value (str/int/list) of the first event called name."""
    bad = []
    for f, v in fields.get(name, {}).items():
        try:
            if f not in got or as_int(got[f]) != v:
                bad.append((f, v, got.get(f)))
        except ValueError:
            bad.append((f, v, got.get(f)))
    for f, v in texts.get(name, {}).items():
        if f not in got or str(got[f]).strip('"') != v:
            bad.append((f, v, got.get(f)))
    for f, k in arrays.get(name, {}).items():
        g = got.get(f, got.get("text") if f == "data" else None)
        cnt = len(g) if isinstance(g, list) else (len(str(g).split()) if g else 0)
        if g is None or (f != "data" and cnt < k):
            bad.append((f, "%d values" % k, g))
    return bad


tok = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|\[[^\]]*\]|[^\s(]+(?:\([^)]*\))?)')
ev_re = re.compile(r"\] \(\+[0-9.?]+\) \S+ (\w+): \{ cpu_id = \d+ \}, \{ (.*) \}$")


def bt_fields(body):
    got = {}
    for m in re.finditer(r'(\w+) = (\[ (?:\[\d+\] = [^,\]]+(?:, )?)*\]|\[ \]|"(?:[^"\\]|\\.)*"|'
                         r'\([^)]*\)|[^,]+)', body):
        k, v = m.group(1), m.group(2).strip()
        got[k] = re.findall(r"\] = ([^,\]]+)", v) if v.startswith("[") else v
    return got


def kevtable_kcalls(api=False):
    """kevtable's kernel-call entries and exits: "syscall_entry_NAME" / "syscall_exit_NAME" ->
    the fields of each, in order; with api, NAME as the API has it (api_name: the CTF's and
    Perfetto's names; kevtable and kev2json keep QNX's)."""
    calls, pending = {}, []
    for line in open(kevtable):
        p = line.split(None, 4)
        if len(p) >= 4 and p[2] == "KER_CALL" and re.match(r"KER_(CALL|EXIT|INTR)_", p[3]):
            got = {}
            for k, v in tok.findall(p[4] if len(p) > 4 else ""):
                got[k] = v
            kind = "entry" if p[3].startswith("KER_CALL_") else "exit"
            name = api_name(p[3][9:], kind, got, pending) if api else p[3][9:]
            calls.setdefault("syscall_%s_%s" % (kind, name), []).append(got)
    return calls


def api_name(call, kind, got, pending):
    """The call's name as the API has it, which the converters give: QNX's CondSignal with its
    `all` argument set is CondBroadcast, its exit too (the next CondSignal exit kevtable
    lists). pending: the broadcasts whose exit is still to come."""
    if call != "CondSignal":
        return call
    if kind == "entry":
        bcast = as_int(got.get("all", "0")) != 0
        pending.append(bcast)
        return "CondBroadcast" if bcast else call
    return "CondBroadcast" if pending and pending.pop(0) else call


def same_fields(want, got, skip=()):
    """The fields of want (kevtable's text) that got lacks or holds another value of."""
    bad = []
    for k, v in want.items():
        if k in skip:
            continue
        g = got.get(k)
        if v.startswith('"'):  # text: compared when both print it plainly
            if "\\" not in v and str(g).strip('"') != v.strip('"'):
                bad.append((k, v, g))
            continue
        try:
            if g is None or as_int(g) != as_int(v):
                bad.append((k, v, g))
        except ValueError:
            bad.append((k, v, g))
    return bad


def kcall_checks(bt_lines, bt):
    """The kernel-call classes: every word named, as the decoder names it."""
    # Every word of a kernel call's entry and exit named: no array (a sequence's _length) in any
    # syscall_* event, each field the decoder gives (kevtable's line; "more": words past QNX's
    # layout, reported by kev2ctf) with its value, and LTTng's ret (-errno on failure).
    unnamed = [l for l in bt_lines if re.search(r" syscall_(entry|exit)_\w+: .*(_length = |\[)", l)]
    check("babeltrace2: no kernel-call entry or exit carries a word array (every word named)",
          not unnamed, unnamed[:2])
    kt_calls, bad, pairs = kevtable_kcalls(api=True), [], 0
    for cls, kts in kt_calls.items():
        for kt, body in zip(kts, bt.get(cls, [])):
            pairs += 1
            b = bt_fields(body)
            bad += [(cls,) + x for x in same_fields(kt, b, ("more", "ret") if "_exit_" in cls
                                                    else ("more",))]
            if cls.startswith("syscall_exit_") and "ret" in kt:
                err = as_int(kt["errno"]) if "errno" in kt else 0
                want = -err if err else as_int(kt["ret"])
                if "ret" not in b or as_int(b["ret"]) != want:
                    bad.append((cls, "ret (LTTng's)", want, b.get("ret")))
        if len(kts) != len(bt.get(cls, [])):
            bad.append((cls, "events", len(kts), len(bt.get(cls, []))))
    check("babeltrace2: %d kernel-call entries and exits, each with every field kevtable names, "
          "same value" % pairs, pairs > 0 and not bad, bad[:6])
    fails = [b for b in bt.get("syscall_exit_MsgSend", []) if "errno = 22" in b and "ret = -22" in b]
    check("babeltrace2: a failed call's exit says errno = 22 and ret = -22 (kevscen's [-1, 22])",
          len(fails) > 0, bt.get("syscall_exit_MsgSend", [])[:2])


if kcalls_only:
    bt_lines = open(bt2).read().splitlines()
    bt = {}
    for l in bt_lines:
        m = ev_re.search(l)
        if m:
            bt.setdefault(m.group(1), []).append(m.group(2))
    check("babeltrace2: no kev_unknown event", not any(" kev_unknown:" in l for l in bt_lines))
    kcall_checks(bt_lines, bt)
    sys.exit(0)


# ---- kevtable (the decoder itself) ----
def best(tool, name, occurrences):
    """The comparison of the occurrence of name that matches best (kevscen's own event among
    the snapshot's and the scenario's others of the same name)."""
    return min((compare(tool, name, g) for g in occurrences), key=len, default=["absent"])


seen = {}
kev_names = set()
for line in open(kevtable):
    p = line.split(None, 4)
    if len(p) < 4:
        continue
    kev_names.add(p[3])
    got = {}
    for k, v in tok.findall(p[4] if len(p) > 4 else ""):
        got[k] = v.strip("[]").split(",") if v.startswith("[") else v
    seen.setdefault(p[3], []).append(got)
bad = [(nm, best("kevtable", nm, seen[nm])) for nm in names if nm in seen]
check("kevtable: all %d events of the table are in the capture" % len(names),
      all(nm in seen for nm in names), [nm for nm in names if nm not in seen])
check("kevtable: every field with the value kevscen wrote", all(not b for _, b in bad),
      [x for x in bad if x[1]])
missing = [k for k in kcalls if "KER_CALL_" + k not in kev_names or "KER_EXIT_" + k not in kev_names]
check("kevtable: the entry and exit of all %d kernel calls, named" % len(kcalls), not missing, missing)

# ---- babeltrace2 over kev2ctf's output ----
bt_lines = open(bt2).read().splitlines()
check("babeltrace2: no kev_unknown event", not any(" kev_unknown:" in l for l in bt_lines),
      [l for l in bt_lines if " kev_unknown:" in l][:3])
bt = {}
for l in bt_lines:
    m = ev_re.search(l)
    if m:
        bt.setdefault(m.group(1), []).append(m.group(2))
# The classes kev2ctf declares itself (LTTng-style, or with fields derived beside the table's:
# Linux ids, named frames) are checked by test_kev2ctf.sh; the table's classes, the COMM
# events' kev_comm_<name> among them, are checked here field by field.
HAND = {"kev_fault", "kev_stack", "kev_sync_wait", "kev_image", "kev_timer_expire", "kev_user"}
bad, ctf_checked = [], 0
for nm in names:
    cls = "kev_" + nm.lower()
    if cls not in bt and "kev_comm_" + nm.lower() in bt:
        cls = "kev_comm_" + nm.lower()
    if cls in bt and cls not in HAND:
        ctf_checked += 1
        b = best("ctf", nm, [bt_fields(x) for x in bt[cls]])
        if b:
            bad.append((nm, b))
check("babeltrace2: %d table events as kev_<name> classes with every field and value" % ctf_checked,
      ctf_checked > 0 and not bad, bad)
raw = [l for l in bt_lines if re.search(r"syscall_entry_\w+: .*\bargs = \[", l)]
check("babeltrace2: kernel-call entries with named arguments (no raw args[])", not raw, raw[:2])
# (CondSignal's calls with `all` set are CondBroadcast's, as the API names them)
nok = [k for k in kcalls if not any("syscall_entry_" + n in bt and "syscall_exit_" + n in bt
                                    for n in ([k, "CondBroadcast"] if k == "CondSignal" else [k]))]
check("babeltrace2: all %d kernel calls' entries and exits" % len(kcalls), not nok, nok)
kcall_checks(bt_lines, bt)
# ---- kev2json ----
doc = json.load(open(jsonf))
recs = doc["traceEvents"] if isinstance(doc, dict) else doc
js = {}
for r in recs:
    a = r.get("args") or {}
    if "event" in a:
        js.setdefault(a["event"], []).append(a.get("fields", {}))
bad = [(nm, best("json", nm, js[nm])) for nm in names if nm in js]
check("kev2json: every event named, with its fields", all(nm in js for nm in names),
      [nm for nm in names if nm not in js])
check("kev2json: every field with the value kevscen wrote", all(not b for _, b in bad),
      [x for x in bad if x[1]])

# ---- kev2perfetto: the events no other view places, as instants with args ----
pf = {}
for line in open(pfinst):
    x = json.loads(line)
    pf.setdefault(x["name"], []).append(x["args"])
# (kevscen's sends, receives and replies match none of each other, and its FUNC_EXIT no entry
# of its function: instants too; a FUNC_ENTER is its slice's begin, or an instant without
# its fields when it did not return)
placed_elsewhere = re.compile(r"^(TH|INT_ENTR|INT_EXIT|USER|FUNC_ENTER|STACK|FAULT|IMAGE|SNAPSHOT)")
want = [nm for nm in names if not placed_elsewhere.match(nm)]
bad = [(nm, best("perfetto", nm, pf.get(nm, [{}]))) for nm in want]
check("kev2perfetto: %d events as instants named by the table, with every field and value"
      % len(want), all(nm in pf for nm in want) and all(not b for _, b in bad),
      ([nm for nm in want if nm not in pf], [x for x in bad if x[1]]))

# ---- kernel calls in kev2perfetto (slices: the entry's fields as the begin's args, the exit's
# as the end's) and kev2json (the "fields" of each B and E record), as kevtable names them ----
kt = kevtable_kcalls()
# kevscen writes each call's exit twice, [0, 0] then [-1, 22]: the second names 22 as errno, or
# in a raw call's own result words (ClockCycles' cycles 0x16ffffffff, Semihost's reg1).
miss = []
for k in kcalls:
    ex = kt.get("syscall_exit_" + k, [])
    vals = [v for f, v in (ex[1].items() if len(ex) > 1 else []) if f != "ret"]
    if not any(re.match(r"^(22\b|0x16\b|98784247807$|0x16ffffffff$)", v) for v in vals):
        miss.append((k, ex[1] if len(ex) > 1 else None))
check("kevtable: every call's failed exit names kevscen's errno 22 (or the raw result words)",
      kcalls and not miss, miss[:5])
if pfkcalls:
    pfk, kt_api = {}, kevtable_kcalls(api=True)
    for line in open(pfkcalls):
        x = json.loads(line)
        pfk.setdefault("syscall_entry_" + x["name"], []).append(x["args"])
        pfk.setdefault("syscall_exit_" + x["name"], []).append(x["end_args"])
    bad, pairs = [], 0
    for cls, kts in kt_api.items():
        got = pfk.get(cls, [])
        pairs += min(len(kts), len(got))
        bad += [(cls,) + y for a, b in zip(kts, got) for y in same_fields(a, b, ("more",))]
        if len(kts) != len(got):
            bad.append((cls, "events", len(kts), len(got)))
    check("kev2perfetto: %d kernel-call slices' begin and end args, every field kevtable names, "
          "same value" % pairs, pairs > 0 and not bad, bad[:6])
jk = {}
for r in recs:
    a = r.get("args") or {}
    ev = a.get("event", "")
    if r.get("cat") == "kev.kcall" and re.match(r"KER_(CALL|EXIT|INTR)_", ev):
        kind = "entry" if ev.startswith("KER_CALL_") else "exit"
        jk.setdefault("syscall_%s_%s" % (kind, ev[9:]), []).append(a.get("fields", {}))
bad, pairs = [], 0
for cls, kts in kt.items():
    got = jk.get(cls, [])
    pairs += min(len(kts), len(got))
    bad += [(cls,) + y for a, b in zip(kts, got) for y in same_fields(a, b)]
    if len(kts) != len(got):
        bad.append((cls, "events", len(kts), len(got)))
check("kev2json: %d kernel-call entries and exits, every field kevtable names, same value" % pairs,
      pairs > 0 and not bad, bad[:6])
raw = [r for r in recs if r.get("cat", "").startswith("kev.") and "event" in (r.get("args") or {})
       and ({"w", "a", "words"} & set(r["args"]) or "more" in r["args"].get("fields", {}))]
check("kev2json: no record of a named event carries raw words (w, a, words, more)", not raw, raw[:2])

# ---- traceprinter: every event named ----
text = open(tp).read()
QNX_NAMES = {"USER": "USREVENT"}  # QNX's own print name kept
miss = [nm for nm in names if not re.search(r"[\s:]%s\b" % re.escape(QNX_NAMES.get(nm, nm)), text)]
check("traceprinter: every event named", not miss, miss)
for nm in ("USDT", "FUNC_EXIT", "URING_BAD", "TIMER"):
    if nm in names:
        line = next((l for l in text.splitlines() if ":%s " % nm in l), "")
        want_f = list(fields.get(nm, {})) + list(arrays.get(nm, {}))
        check("traceprinter: %s with its fields named (%s)" % (nm, " ".join(want_f)),
              all(f + ":" in line for f in want_f), line)

# ---- kevsql: event JOIN args, keys fields.NAME ----
import csv
number = {}  # (class name, number) -> event name, from the listing
cls = None
for line in open(listing):
    m = re.match(r"### (\w+) \(class \d+\)", line)
    if m:
        cls = m.group(1)
    m = re.match(r"\| (\d+)(?:-(\d+))? \| (\w+) \|", line)
    if m and cls:
        for k in range(int(m.group(1)), int(m.group(2) or m.group(1)) + 1):
            number[(cls, k)] = m.group(3)
sq = {}
for row in csv.reader(open(sqlf)):
    if len(row) < 5:
        continue
    nm = number.get((row[0], int(row[1])))
    if nm:
        sq.setdefault(nm, {}).setdefault(row[2], {})[row[3].replace("fields.", "", 1)] = (
            row[4].split() if " " in row[4] and row[4].startswith("0x") else row[4])
bad = [(nm, best("kevsql", nm, list(sq[nm].values()))) for nm in names if nm in sq]
check("kevsql: every event's fields in args (fields.NAME) with the value kevscen wrote",
      all(nm in sq for nm in names) and all(not b for _, b in bad),
      ([nm for nm in names if nm not in sq], [x for x in bad if x[1]]))
