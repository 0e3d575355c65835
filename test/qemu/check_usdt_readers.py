#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The USDT firings of one capture as each reader shows them, against truths from outside the
# readers (test/qemu/test_usdt.sh runs it over its boot's capture):
#  - the name of every firing is the one binutils' readelf -n gives the note at its site
#    (provider:name), and its program is usdtdemo;
#  - each probe fired as often as the program says it passed its site;
#  - demo:third's arguments are the ones the program printed, in order: its counter and -i
#    (a negative int: signed as the note's -4@ says, never 2^64 - i);
#  - (kev2ctf) each FUNC event's function is the one nm's symbol table puts around this_fn.
# usage: check_usdt_readers.py READER OUTPUT READELF LIVE [NM]
#   READER   traceprinter, kevstat, kevsql, ctf, perfetto, json or report
#   OUTPUT   that reader's output: traceprinter's text; kevstat -s usdt's text; kevsql
#            --json of "SELECT site, name, module, arg0, arg1 FROM usdt ORDER BY ts" then of
#            the event table's names; babeltrace2's text; check_perfetto_protoc.py -d's
#            instants; kev2json's file; kevreport's page, then chromium's DOM of it (OUTPUT,
#            OUTPUT.dom)
#   READELF  "provider name address" per note (address in decimal)
#   LIVE     the boot's console (usdtdemo's "passed" line and its demo:third arguments)
#   NM       nm -S of the program (ctf: the FUNC events' functions)
# Prints one TAP line without a number ("ok - ..." / "not ok - ..."), details as # lines.
import json
import re
import sys

reader, path, readelf_path, live_path = sys.argv[1:5]
nm_path = sys.argv[5] if len(sys.argv) > 5 else None

sites = {}
for line in open(readelf_path):
    p, n, a = line.split()
    sites[int(a)] = p + ":" + n
live = open(live_path, errors="replace").read()
m = re.search(r"usdtdemo: passed step (\d+) third (\d+) done (\d+), .*costly (\d+)", live)
passed = dict(zip(("demo:step", "demo:third", "demo:done", "demo:costly"),
                  map(int, m.groups()))) if m else {}
m = re.search(r"usdtdemo: demo:third's arguments((?: \d+,-?\d+)*)", live)
third = [tuple(map(int, w.split(","))) for w in m.group(1).split()] if m else []
problems = []


def firings(rows):
    """rows: (site or None, name, module, [args]) per firing, in time order."""
    counts, third_seen = {}, []
    for site, name, module, args in rows:
        counts[name] = counts.get(name, 0) + 1
        if site is not None and sites.get(site) != name:
            problems.append("site 0x%x named %s, readelf: %s" % (site, name, sites.get(site)))
        if module != "usdtdemo":
            problems.append("%s in module %r" % (name, module))
        if name == "demo:third":
            third_seen.append(tuple(args[:2]))
    return counts, third_seen


def compare(counts, third_seen, what):
    if counts != passed:
        problems.append("counts %s, the program's %s" % (counts, passed))
    if third_seen != third:
        problems.append("demo:third's arguments %s, the program's %s" % (third_seen[:4], third[:4]))
    ok = not problems and passed and third
    print("%s - %s: %s" % ("ok" if ok else "not ok", reader, what))
    for p in problems[:6]:
        print("# " + p)


def ints(s):
    return [int(x) for x in s]


if reader == "traceprinter":
    rows = []
    for m in re.finditer(r":USDT +(\S+) \((\S+)\) site:0x([0-9a-f]+)((?: arg\d+:-?\d+)*)",
                         open(path).read()):
        rows.append((int(m.group(3), 16), m.group(1), m.group(2),
                     ints(re.findall(r"arg\d+:(-?\d+)", m.group(4)))))
    compare(*firings(rows), "each USDT line names its probe and program, arguments as passed")
elif reader == "kevstat":
    counts, ranges = {}, {}
    for line in open(path):
        m = re.match(r"  (\S+:\S+) +(\S+) +(\d+) +[\d.]+ +[\d.]+ ?((?: arg\d+ -?\d+\.\.-?\d+)*)", line)
        if m:
            counts[m.group(1)] = int(m.group(3))
            ranges[m.group(1)] = re.findall(r"arg\d+ (-?\d+)\.\.(-?\d+)", m.group(4))
            if m.group(2) != "usdtdemo" or m.group(1) not in sites.values():
                problems.append("%s of %s: not a note of usdtdemo" % (m.group(1), m.group(2)))
    want = [(str(min(a[k] for a in third)), str(max(a[k] for a in third))) for k in (0, 1)] \
        if third else None
    if ranges.get("demo:third") != want:
        problems.append("demo:third's ranges %s, the program's %s" % (ranges.get("demo:third"), want))
    compare(counts, third, "-s usdt: each probe's count and demo:third's least and greatest arguments")
elif reader == "kevsql":
    text = open(path).read().split("\n\n")
    q = json.loads(text[0])
    rows = [(r[0], r[1], r[2], r[3:]) for r in q["rows"]]
    names = {r[0]: r[1] for r in json.loads(text[1])["rows"]}
    counts, third_seen = firings(rows)
    if {k: v for k, v in names.items() if ":" in k} != counts:
        problems.append("event's names %s, usdt's %s" % (names, counts))
    compare(counts, third_seen, "the usdt table's names, programs and arguments; the event table's names")
elif reader == "ctf":
    rows, funcs, bad_funcs = [], 0, []
    symbols = []
    for line in open(nm_path or "/dev/null"):
        w = line.split()
        if len(w) == 4 and w[2] in "tTwW":
            symbols.append((int(w[0], 16), int(w[1], 16), w[3]))
    for line in open(path):
        m = re.search(r" (\w+:\w+): \{[^}]*\}, \{ .*site = 0x([0-9A-F]+), module = \"([^\"]*)\", "
                      r"function = \"[^\"]*\"(.*) \}$", line)
        if m:
            rows.append((int(m.group(2), 16), m.group(1), m.group(3),
                         ints(re.findall(r"arg\d+ = (-?\d+)", m.group(4)))))
            continue
        m = re.search(r" kev_func_(?:enter|exit): .*this_fn = 0x([0-9A-F]+).*function = \"([^\"]*)\"", line)
        if m:
            funcs += 1
            fn = int(m.group(1), 16) & ~1
            truth = [s for a, n, s in symbols if (a & ~1) <= fn < (a & ~1) + n]
            if m.group(2) not in truth:
                bad_funcs.append("this_fn 0x%x named %s, nm %s" % (fn, m.group(2), truth))
    if not funcs or bad_funcs:
        problems.append("%d FUNC events, misnamed: %s" % (funcs, bad_funcs[:3]))
    compare(*firings(rows), "babeltrace2 reads provider:probe classes with signed arguments, "
            "and %d FUNC events with nm's function" % funcs)
elif reader in ("perfetto", "json"):
    rows = []
    if reader == "perfetto":
        events = [json.loads(line) for line in open(path)]
        events = [e for e in events if "usdt" in (e.get("cat") or [])]
    else:
        d = json.load(open(path))
        events = [e for e in (d["traceEvents"] if isinstance(d, dict) else d)
                  if e.get("cat") == "usdt"]
        for e in events:
            e["args"]["site"] = int(e["args"]["fields"]["site"], 16)
    for e in sorted(events, key=lambda e: e["ts"]):
        a = e["args"]
        rows.append((a.get("site"), e["name"], a.get("module"),
                     [a["arg%d" % k] for k in range(6) if "arg%d" % k in a]))
    compare(*firings(rows), "instants named provider:probe with the probe's args" +
            (" (decoded by Perfetto's protos)" if reader == "perfetto" else ""))
elif reader == "report":
    page = open(path).read()
    data = json.loads(re.search(r'<script id="kev-data" type="application/json">\n(.*?)\n?</script>',
                                page, re.S).group(1))
    counts = {u["probe"]: u["count"] for u in data["stats"]["usdt"]}
    rows = []
    for ev in data["timeline"]["events"]:
        m = re.match(r"USDT (\S+) \((\S+)\) site:0x([0-9a-f]+)((?: arg\d+:-?\d+)*)", ev[4])
        if m:
            rows.append((int(m.group(3), 16), m.group(1), m.group(2),
                         ints(re.findall(r"arg\d+:(-?\d+)", m.group(4)))))
    listed, third_seen = firings(rows)
    if listed != counts:
        problems.append("the event list's firings %s, the USDT section's %s" % (listed, counts))
    dom = open(path + ".dom", errors="replace").read()
    sect = re.search(r'<section id="usdt".*?</section>', dom, re.S)
    shown = re.findall(r"<tr><td>(\w+:\w+)</td><td>usdtdemo</td><td>[^<]*</td><td>(\d+)</td>",
                       sect.group(0)) if sect else []
    if {n: int(c) for n, c in shown} != passed:
        problems.append("chromium shows %s in the USDT section" % shown)
    compare(counts, third_seen, "the USDT section (as chromium shows it) and the event list")
else:
    print("not ok - unknown reader %s" % reader)
