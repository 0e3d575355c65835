#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# kev2json: the JSON parses, keeps one record per .kev event, and has the expected tracks,
# slices, flows and loss markers for the scripted scenarios (check_json.py); damaged input.
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
    python3 "$here/check_json.py" "$dir/$s.json" "$dir/$s.expect" "$events" "$lost" \
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

# A generated workload in every policy: valid JSON, one kev.* record per event.
for p in switch ring; do
    "$bin/kevgen" -x "$p" -k 3 -d 0 -n 30000 -o "$dir/$p.kev" >/dev/null
    "$bin/kev2json" -o "$dir/$p.json" "$dir/$p.kev"
    read -r events lost <<<"$(kev_counts "$dir/$p.kev")"
    got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sum(1 for e in d["traceEvents"] if e.get("cat","").startswith("kev.")), sum(e["args"]["lost"] for e in d["traceEvents"] if e.get("cat")=="loss"))' "$dir/$p.json")
    check "$p: valid JSON with $events kev records and $lost lost" test "$got" = "$events $lost"
done
"$bin/kevgen" -n 20000 -o "$dir/le.kev" >/dev/null
check "stdout output parses too" python3 -m json.tool <("$bin/kev2json" "$dir/le.kev") /dev/null

${KEVSCEN4:-build/host-test/kevscen4} smp "$dir/smp.kev" >/dev/null
"$bin/kev2json" -o "$dir/smp.json" "$dir/smp.kev"
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
