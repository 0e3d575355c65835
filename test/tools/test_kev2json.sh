#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# kev2json: the JSON parses, keeps one record per .kev event, is read right by Perfetto's JSON
# import rules (check_json.py: B/E matching by cat and name, flows bound to slices) on the
# scripted scenarios, kevgen traces with every overrun policy in both byte orders and two
# CPUs, and has the expected tracks, slices, flows and loss markers for the scenarios;
# damaged input.
# usage: test_kev2json.sh [BINDIR [SCRATCHDIR]]  (defaults: build/host build/host-test/kevconv)
set -u
bin=${1:-build/host}
here=$(dirname "$0")
. "$here/tap.sh"
scratch json "${2:-build/host-test/kevconv}"
need python3

for s in basic loss kbasic; do
    k=; [ "${s#k}" != "$s" ] && k=-k
    "$bin/kevscen" $k "${s#k}" "$dir/$s.kev" >"$dir/$s.expect"
    if "$bin/kev2json" -o "$dir/$s.json" "$dir/$s.kev" 2>"$dir/$s.err"; then
        ok "$s: kev2json converts"
    else
        notok "$s: kev2json converts" "$(cat "$dir/$s.err")"
    fi
    read -r events lost <<<"$(kev_counts "$dir/$s.kev")"
    python3 "$here/check_json.py" "$dir/$s.json" "$events" "$lost" "$dir/$s.expect" \
        > "$dir/$s.tap" 2>&1
    rc=$?
    grep -q '^not ok' "$dir/$s.tap" || [ "$rc" = 0 ] || echo "not ok 0 - check_json.py exit $rc" >> "$dir/$s.tap"
    while IFS= read -r line; do
        case $line in
            "ok "*) ok "$s: ${line#ok * - }" ;;
            "not ok "*) notok "$s: ${line#not ok * - }" ;;
            *) echo "$line" ;;
        esac
    done < "$dir/$s.tap"
done

# rules NAME KEV: valid JSON, one kev.* record per event, the loss total, Perfetto's import
# rules (B/E matching by cat and name, flows bound to slices: check_json.py).
rules() {
    local events lost
    "$bin/kev2json" -o "$dir/$1.json" "$2"
    read -r events lost <<<"$(kev_counts "$2")"
    python3 "$here/check_json.py" "$dir/$1.json" "$events" "$lost" >"$dir/$1.tap" 2>&1
    check "$1: $events kev records, $lost lost, Perfetto's import rules kept" \
        test -z "$(grep '^not ok' "$dir/$1.tap")" -a -n "$(grep '^ok.*the JSON parses' "$dir/$1.tap")"
    grep -A1 '^not ok' "$dir/$1.tap"
}
# A generated workload in every policy and both byte orders, two CPUs.
for p in switch overwrite ring fill; do
    for b in "" -b; do
        "$bin/kevgen" $b -x "$p" -k 8 -d 0 -n 100000 -o "$dir/$p$b.kev" >/dev/null
        rules "kevgen $p ${b:+big-endian}" "$dir/$p$b.kev"
    done
done
"$bin/kevgen" -n 20000 -o "$dir/le.kev" >/dev/null
check "stdout output parses too" python3 -m json.tool <("$bin/kev2json" "$dir/le.kev") /dev/null

${KEVSCEN4:-build/host-test/kevscen4} smp "$dir/smp.kev" >/dev/null
rules smp "$dir/smp.kev"
# User events the trace names (the registry, trace/kev_userreg.h): kevscen sync's logger
# declares 101 "wait_report" with a format; its events are instants named by it.
want=$("$bin/kevscen" -s -r 2 sync "$dir/sync.kev" | sed -n 's/^expect user 101 [0-9]* \([a-z_]*\) /\1: /p')
"$bin/kev2json" -o "$dir/sync.json" "$dir/sync.kev" >/dev/null
check "a registered user event is named and its words formatted: $want" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["traceEvents"]
sys.exit(0 if sum(1 for e in d if e.get("cat") == "kev.user" and e["name"] == sys.argv[2]) == 2 else 1)' "$dir/sync.json" "$want"
# The same interrupt on two CPUs at once: a track per (irq, CPU), so each slice keeps its own
# 20 us (on one track an exit would close the other CPU's slice).
read -r _ _ nirq dirq <<<"$(${KEVSCEN4:-build/host-test/kevscen4} wake "$dir/wake.kev" | grep '^expect irq9 ')"
rules "wake across CPUs" "$dir/wake.kev"
check "irq 9 on two CPUs at once: $nirq slices of $dirq us, on tracks per CPU" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["traceEvents"]
names = {(e["pid"], e["tid"]): e["args"]["name"] for e in d if e.get("ph") == "M" and e["name"] == "thread_name"}
tracks = {k for k, v in names.items() if v.startswith("irq 9 on CPU ")}
open_ = {}
durs = []
for e in sorted((e for e in d if (e.get("pid"), e.get("tid")) in tracks and e.get("name") == "irq 9" and e["ph"] in "BE"), key=lambda e: e["ts"]):
    k = (e["pid"], e["tid"])
    if e["ph"] == "B":
        open_[k] = e["ts"]
    else:
        durs.append(e["ts"] - open_.pop(k))
sys.exit(0 if len(tracks) == 2 and len(durs) == int(sys.argv[2]) and all(abs(x - float(sys.argv[3])) < 1e-6 for x in durs) else 1)
' "$dir/wake across CPUs.json" "$nirq" "$dirq"
check "two CPUs: a named track per CPU" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
names = {e["args"]["name"] for e in d["traceEvents"] if e["ph"] == "M" and e["name"] == "thread_name"}
sys.exit(0 if {"CPU 0", "CPU 1"} <= names else 1)' "$dir/smp.json"

size=$(stat -c %s "$dir/le.kev")
head -c $((size - 1000)) "$dir/le.kev" > "$dir/trunc.kev"
err=$("$bin/kev2json" -o "$dir/trunc.json" "$dir/trunc.kev" 2>&1); rc=$?
check "truncated file: exit 1 with a message" test "$rc" = 1 -a -n "$(grep -i truncated <<<"$err")"
check "truncated file: what was decoded is still valid JSON" python3 -m json.tool "$dir/trunc.json" /dev/null
head -c 64 "$dir/le.kev" > "$dir/hdr.kev"
"$bin/kev2json" "$dir/hdr.kev" >/dev/null 2>&1; check "cut header exits 1" test $? = 1
"$bin/kev2json" --help | grep -q '^usage: kev2json'; check "--help prints usage" test $? = 0
"$bin/kev2json" -q x >/dev/null 2>&1; check "unknown option exits 2" test $? = 2
finish
