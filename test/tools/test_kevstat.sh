#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# kevstat: results checked against scripted scenarios whose answers kevscen computes from its
# own script (check_stats.py), text output, sections, damaged input.
# usage: test_kevstat.sh [BINDIR [SCRATCHDIR]]  (defaults: build/host build/host-test/kevconv)
set -u
bin=${1:-build/host}
here=$(dirname "$0")
. "$here/tap.sh"
scratch stat "${2:-build/host-test/kevconv}"
need python3

# Each scenario in both ways of writing message events (kevscen -k: as the kernel does for a
# waiting receiver) and with two round counts.
for s in basic loss kbasic kloss; do
    k=; [ "${s#k}" != "$s" ] && k=-k
    for r in 20 7; do
        "$bin/kevscen" $k -r "$r" "${s#k}" "$dir/$s$r.kev" >"$dir/$s$r.expect"
        if ! "$bin/kevstat" --json "$dir/$s$r.kev" >"$dir/$s$r.json" 2>"$dir/$s$r.err"; then
            notok "$s, $r rounds: kevstat --json runs" "$(cat "$dir/$s$r.err")"; continue; fi
        python3 "$here/check_stats.py" "$dir/$s$r.json" "$dir/$s$r.expect" >"$dir/$s$r.tap" 2>&1
        rc=$?
        grep -q '^not ok' "$dir/$s$r.tap" || [ "$rc" = 0 ] || echo "not ok 0 - check_stats.py exit $rc" >>"$dir/$s$r.tap"
        while IFS= read -r line; do
            case $line in
                "ok "*) ok "$s, $r rounds: ${line#ok * - }" ;;
                "not ok "*) notok "$s, $r rounds: ${line#not ok * - }" ;;
                *) echo "$line" ;;
            esac
        done <"$dir/$s$r.tap"
    done
done

# Two CPUs (kevscen4 is kevscen over the producer built for 4 CPUs).
scen4=${KEVSCEN4:-build/host-test/kevscen4}
"$scen4" smp "$dir/smp.kev" >"$dir/smp.expect"
"$bin/kevstat" --json "$dir/smp.kev" >"$dir/smp.json"
python3 "$here/check_stats.py" "$dir/smp.json" "$dir/smp.expect" >"$dir/smp.tap" 2>&1
[ $? = 0 ] || grep -q '^not ok' "$dir/smp.tap" || echo "not ok 0 - check_stats.py failed" >>"$dir/smp.tap"
while IFS= read -r line; do
    case $line in
        "ok "*) ok "smp: ${line#ok * - }" ;;
        "not ok "*) notok "smp: ${line#not ok * - }" ;;
        *) echo "$line" ;;
    esac
done <"$dir/smp.tap"
check "smp: idle time per CPU in the text" grep -q '(CPU 1: no thread running)' <("$bin/kevstat" -s cpu "$dir/smp.kev")

txt=$("$bin/kevstat" "$dir/basic20.kev")
check "text: CPU time table" grep -qE '^  worker/main +10000\.000 ' <<<"$txt"
check "text: quantize-style histogram" grep -qE '^ +256 \|@{40} 20$' <<<"$txt"
check "text: errno breakdown" grep -q 'errno 11: 20' <<<"$txt"
check "text: slowest request's path" grep -q 'slowest request: 300.000 us across 3 threads' <<<"$txt"
check "text: loss window listed" grep -q 'CPU 0: [0-9]* lost between' <("$bin/kevstat" -s lost "$dir/loss20.kev")
check "-s picks sections" test "$("$bin/kevstat" -s irq "$dir/basic20.kev" | grep -c '^==')" = 1
"$bin/kevgen" -x ring -k 3 -d 0 -n 30000 -o "$dir/ring.kev" >/dev/null
check "--json on a lossy generated trace parses" python3 -m json.tool <("$bin/kevstat" --json "$dir/ring.kev") /dev/null

size=$(stat -c %s "$dir/basic20.kev")
head -c $((size - 100)) "$dir/basic20.kev" >"$dir/trunc.kev"
err=$("$bin/kevstat" --json "$dir/trunc.kev" 2>&1 >"$dir/trunc.json"); rc=$?
check "truncated file: exit 1 with a message" test "$rc" = 1 -a -n "$(grep -i truncated <<<"$err")"
check "truncated file: the results so far are still valid JSON" python3 -m json.tool "$dir/trunc.json" /dev/null
"$bin/kevstat" "$dir/none.kev" >/dev/null 2>&1; check "missing file exits 1" test $? = 1
"$bin/kevstat" -s bogus "$dir/basic20.kev" >/dev/null 2>&1; check "unknown section exits 2" test $? = 2
"$bin/kevstat" --help | grep -q '^usage: kevstat'; check "--help prints usage" test $? = 0
finish
