#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# kev2perfetto: the protobuf trace decodes (check_perfetto.py's own wire-format reader) and
# its scheduling, wake-up and interrupt events match the scripted scenarios; damaged input.
# usage: test_kev2perfetto.sh [BINDIR [SCRATCHDIR]]  (defaults: build/host build/host-test/kevconv)
set -u
bin=${1:-build/host}
here=$(dirname "$0")
. "$here/tap.sh"
scratch perfetto "${2:-build/host-test/kevconv}"
need python3

for s in basic kbasic loss; do
    k=; [ "${s#k}" != "$s" ] && k=-k
    "$bin/kevscen" $k "${s#k}" "$dir/$s.kev" >"$dir/$s.expect"
    if ! "$bin/kev2perfetto" -o "$dir/$s.pftrace" "$dir/$s.kev" 2>"$dir/$s.err"; then
        notok "$s: kev2perfetto converts" "$(cat "$dir/$s.err")"; continue; fi
    running=$("$bin/traceprinter" "$dir/$s.kev" | sed -n '/SNAPSHOT *0x00000001/,$p' | grep -c THRUNNING)
    python3 "$here/check_perfetto.py" "$dir/$s.pftrace" "$dir/$s.expect" "$running" >"$dir/$s.tap" 2>&1
    rc=$?
    grep -q '^not ok' "$dir/$s.tap" || [ "$rc" = 0 ] || echo "not ok 0 - check_perfetto.py exit $rc" >>"$dir/$s.tap"
    while IFS= read -r line; do
        case $line in
            "ok "*) ok "$s: ${line#ok * - }" ;;
            "not ok "*) notok "$s: ${line#not ok * - }" ;;
            *) echo "$line" ;;
        esac
    done <"$dir/$s.tap"
done

"$bin/kevgen" -x ring -k 8 -d 0 -n 100000 -o "$dir/ring.kev" >/dev/null
"$bin/kev2perfetto" -o "$dir/ring.pftrace" "$dir/ring.kev"
python3 "$here/check_perfetto.py" "$dir/ring.pftrace" >"$dir/ring.tap" 2>&1
check "a generated lossy trace converts and decodes" test -z "$(grep '^not ok' "$dir/ring.tap")" -a -n "$(grep '^ok.*the trace decodes' "$dir/ring.tap")"
${KEVSCEN4:-build/host-test/kevscen4} smp "$dir/smp.kev" >/dev/null
"$bin/kev2perfetto" -o "$dir/smp.pftrace" "$dir/smp.kev"
python3 "$here/check_perfetto.py" "$dir/smp.pftrace" >"$dir/smp.tap" 2>&1
check "two CPUs: decodes, time order per CPU" test -z "$(grep '^not ok' "$dir/smp.tap")"
check "two CPUs: a bundle per CPU" grep -q 'CPUs with events: 0,1$' "$dir/smp.tap"
size=$(stat -c %s "$dir/basic.kev")
head -c $((size - 100)) "$dir/basic.kev" >"$dir/trunc.kev"
err=$("$bin/kev2perfetto" -o "$dir/trunc.pftrace" "$dir/trunc.kev" 2>&1); rc=$?
check "truncated file: exit 1 with a message" test "$rc" = 1 -a -n "$(grep -i truncated <<<"$err")"
"$bin/kev2perfetto" --help | grep -q '^usage: kev2perfetto'; check "--help prints usage" test $? = 0
"$bin/kev2perfetto" "$dir/basic.kev" >/dev/null 2>&1; check "missing -o exits 2" test $? = 2
finish
