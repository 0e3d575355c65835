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
# waiting receiver) and with two round counts; "ibasic" and "kibasic" with interrupts that come
# while their driver is busy (kevscen -i: their latency counts the wait for the driver).
for s in basic loss kbasic kloss ibasic kibasic; do
    k=; [ "${s#k}" != "$s" ] && k=-k
    i=; case $s in *ibasic) i=-i ;; esac
    for r in 20 7; do
        "$bin/kevscen" $k $i -r "$r" "$(sed 's/^k\{0,1\}i\{0,1\}//' <<<"$s")" "$dir/$s$r.kev" >"$dir/$s$r.expect"
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
check "smp: time each CPU ran threads and the migrations in the text" \
    bash -c "\"$bin/kevstat\" -s cpu \"$dir/smp.kev\" | grep -qE '^  CPU 1 +14000\\.000 ' &&
             \"$bin/kevstat\" -s cpu \"$dir/smp.kev\" | grep -qE '^  server/main .* 39$' &&
             \"$bin/kevstat\" -s cpu \"$dir/smp.kev\" | grep -qE '^  migrations \\(all threads\\) +39$'"

# How the capture's time was kept (kx_emul.c): kevscen4's emul scenario has its tick skip
# periods and a run on CPU 1 stalled while CPU 0 takes two ticks, on purpose, the answers from
# its own script; under each header item QEMU_CLOCK (none, the host's clock, the exact mode):
# the counts, the "time:" line naming the mode, the warnings (the stalls only under -icount,
# where QEMU runs the CPUs one at a time), and the same sentences in the report. Its sampler
# (client/main) given a deadline its long run misses: the program's misses and the emulator's
# (those its stall covers), the instances holding the emulator's time and how much, in kevstat,
# kevsql's instance table and the report's misses.
for c in none host icount,shift=0,sleep=off; do
    copt=; [ "$c" = none ] || copt="-c $c"
    "$scen4" $copt -r 6 emul "$dir/emul.kev" >"$dir/emul.expect"
    dl="client/main=$(sed -n 's/^expect emul.tasks.deadline //p' "$dir/emul.expect")us"
    "$bin/kevstat" --json --deadline "$dl" "$dir/emul.kev" >"$dir/emul.json"
    python3 "$here/check_stats.py" "$dir/emul.json" "$dir/emul.expect" >"$dir/emul.tap" 2>&1
    relay "$dir/emul.tap" "emul ($c): "
    skipped=$(sed -n 's/^expect emul.tick.skipped //p' "$dir/emul.expect")
    periods=$(sed -n 's/^expect emul.tick.periods //p' "$dir/emul.expect")
    stretched=$(sed -n 's/^expect emul.stretched //p' "$dir/emul.expect")
    txt=$("$bin/kevstat" -s cpu "$dir/emul.kev")
    case $c in
        none) mode='not recorded' why='does not say how its time was kept' ;;
        host) mode="QEMU on the host's clock" why='QEMU fired its timer late' ;;
        *) mode='QEMU exact mode, -icount shift=0,sleep=off' why='a CPU.s timer interrupt waits for its turn' ;;
    esac
    check "emul ($c): the time line names the mode ($mode)" grep -q "^time: $mode" <<<"$txt"
    check "emul ($c): a warning gives the $skipped skipped tick periods of $periods and why" \
        grep -qE "^WARNING: the tick skipped $skipped of $periods periods .*$why" <<<"$txt"
    nw=$(grep -c "^WARNING: $stretched of [0-9]* runs on 2 CPUs held a stall of their CPU" <<<"$txt")
    check "emul ($c): the runs a stall stretched warned of only under -icount ($nw)" \
        test "$nw" = "$([ "$stretched" = 0 ] && echo 0 || echo 1)"
    # the sampler's misses and the emulator's time in its instances: kevstat's text, kevsql's
    want=$(for k in misses emulator_misses stretched emulator; do
               sed -n "s/^expect emul.tasks.$k //p" "$dir/emul.expect"; done | tr '\n' ' ')
    set -- $want
    txt=$("$bin/kevstat" -s tasks --deadline "$dl" "$dir/emul.kev")
    check "emul ($c): kevstat's task line: the program's misses $1, the emulator's $2" \
        grep -qE "^  client/main +[0-9]+ .* \(given\) +$1 +$2 " <<<"$txt"
    check "emul ($c): kevstat marks the emulator's $2 misses, and only them" \
        test "$(grep -c "^    missed: .*the EMULATOR's miss" <<<"$txt")/$(grep -c '^    missed: ' <<<"$txt")" = "$2/$(($1 + $2))"
    sql=$("$bin/kevsql" --csv --no-header --deadline "$dl" "$dir/emul.kev" "SELECT sum(missed) -
           sum(emulator_miss), sum(emulator_miss), sum(emulator_dur > 0), sum(emulator_dur) / 1000
           FROM instance JOIN thread_label USING (utid) WHERE label = 'client/main'" 2>&1)
    check "emul ($c): kevsql's instance: misses $1 and $2, $3 instances holding $4 us of the emulator's ($sql)" \
        test "$sql" = "$1,$2,$3,$4"
    sh=$(printf '%s\n' .headers\ off .mode\ csv "SELECT sum(missed) - sum(emulator_miss), sum(emulator_miss)
           FROM instance JOIN thread_label USING (utid) WHERE label = 'client/main';" |
         "$bin/kevsql" --deadline "$dl" "$dir/emul.kev" 2>&1 | tail -1 | tr -d "\r")
    check "emul ($c): kevsql's shell given the deadline: misses $1 and $2 ($sh)" test "$sh" = "$1,$2"
    if [ "$c" != none ]; then
        "$bin/kevreport" -o "$dir/emul.html" "$dir/emul.kev" >/dev/null 2>&1
        check "emul ($c): the report holds the same time line and warnings" \
            python3 -c 'import json, sys, subprocess
w = json.loads(subprocess.run([sys.argv[1], "--json", sys.argv[2]], capture_output=True,
                              text=True).stdout)["clock"]
page = open(sys.argv[3]).read()
sys.exit(0 if w["warnings"] and all(json.dumps(x) in page for x in w["warnings"] + [w["says"]]) else 1)' \
            "$bin/kevstat" "$dir/emul.kev" "$dir/emul.html"
        "$bin/kevreport" --deadline "$dl" -o "$dir/emul-dl.html" "$dir/emul.kev" >/dev/null 2>&1
        check "emul ($c): the report's misses of the sampler: $1 the program's, $2 the emulator's" \
            python3 -c 'import json, re, sys
d = open(sys.argv[1]).read()
j = json.loads(re.search(r"<script id=\"kev-data\" type=\"application/json\">(.*?)</script>", d, re.S).group(1))
t = [t for t in j["stats"]["tasks"]["list"] if t["thread"] == "client/main"][0]
m = [x[8] for x in t["missed"]]
sys.exit(0 if (t["misses"], t["emulator_misses"], len(m) - sum(m), sum(m)) == tuple(map(int, sys.argv[2:4])) * 2 else 1)' \
            "$dir/emul-dl.html" "$1" "$2"
    fi
done
"$bin/kevscen" -c icount,shift=4,sleep=off basic "$dir/exact.kev" >/dev/null
txt=$("$bin/kevstat" -s cpu "$dir/exact.kev")
check "an exact-mode capture without the artefacts: the mode named, no warning" \
    bash -c 'grep -q "^time: QEMU exact mode" <<<"$1" && ! grep -q "^WARNING" <<<"$1"' _ "$txt"

txt=$("$bin/kevstat" "$dir/basic20.kev")
check "text: CPU time table" grep -qE '^  worker/main +10000\.000 ' <<<"$txt"
check "text: quantize-style histogram" grep -qE '^ +256 \|@{40} 20$' <<<"$txt"
check "text: errno breakdown, number and name" grep -q 'errno 11 (EAGAIN): 20' <<<"$txt"
check "--json: errno names beside the numbers (what kevreport shows)" \
    grep -q '"errno":{"11":20},"errno_name":{"11":"EAGAIN"}' <("$bin/kevstat" --json "$dir/basic20.kev")
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
off=$(sed -n 's/.*byte offset \([0-9]*\).*/\1/p' <<<"$err" | head -1)
check "truncated file: JSON says damaged at byte offset $off" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["trace"]["damaged"]
sys.exit(0 if d and d["offset"] == int(sys.argv[2]) and "truncated" in d["error"] else 1)' "$dir/trunc.json" "${off:-x}"
txt=$("$bin/kevstat" "$dir/trunc.kev" 2>/dev/null); rc=$?
check "truncated file: the text says DAMAGED and where, exit 1" \
    test "$rc" = 1 -a -n "$(grep "^DAMAGED FILE: .*before byte offset $off;" <<<"$txt")"
check "truncated file: no bare '0 lost': losses after the damage are unknown" \
    test -n "$(grep "^== Lost events: 0 before byte offset $off; after it unknown (file damaged) ==" <<<"$txt")" \
         -a -z "$(grep '^== Lost events: 0 ==$' <<<"$txt")"
check "an intact file is not called damaged" test -z "$("$bin/kevstat" "$dir/basic20.kev" | grep -i damaged)"

# User events: counts per id and process; per id they add up to what traceprinter lists.
"$bin/kevgen" -n 20000 -o "$dir/user.kev" >/dev/null
want=$("$bin/traceprinter" "$dir/user.kev" | sed -n 's/.*USREVENT:EVENT:\([0-9]*\)[ ,].*/\1/p' | sort -n | uniq -c |
       awk '{printf "%s:%s ", $2, $1}')
got=$("$bin/kevstat" --json "$dir/user.kev" | python3 -c '
import json, sys, collections
c = collections.Counter()
for u in json.load(sys.stdin)["user_events"]:
    c[u["id"]] += u["count"]
print("".join("%d:%d " % (k, c[k]) for k in sorted(c)))')
check "user events: counts per id match traceprinter's ($want)" test -n "$want" -a "$want" = "$got"
utxt=$("$bin/kevstat" -s user "$dir/user.kev")
check "user events: text table per id and process" grep -qE '^  7 +[0-9]+ [a-z]+ +[0-9]+ ' <<<"$utxt"
n7=${want#7:}; n7=${n7%% *}
check "user events: per-id totals in the text (id 7: $n7)" grep -q "^  id 7: $n7 in [0-9]* process" <<<"$utxt"
"$bin/kevstat" "$dir/none.kev" >/dev/null 2>&1; check "missing file exits 1" test $? = 1
"$bin/kevstat" -s bogus "$dir/basic20.kev" >/dev/null 2>&1; check "unknown section exits 2" test $? = 2
"$bin/kevstat" --help | grep -q '^usage: kevstat'; check "--help prints usage" test $? = 0

# --folded over a capture with a stack sample at every tick (data/, mps2-an385): one sample a
# tick as traceprinter counts the ticks (INT_ENTR 0x100); a STACK whose depth is past the
# kernel's bound (byte patched) is left out and said, never read past; no samples is said
cap=$here/data/stackchain-mps2.kev
ticks=$("$bin/traceprinter" "$cap" | grep -c 'INT_ENTR:0x00000100')
got=$("$bin/kevstat" --folded "$cap" | awk '{ s += $NF } END { print s + 0 }')
check "folded: $got samples, one a tick ($ticks)" test "$got" = "$ticks" -a "$got" -gt 0
python3 -c '
import sys
d = bytearray(open(sys.argv[1], "rb").read())
i = d.find(bytes([1, 0, 4, 0, 1, 8, 0, 0]))  # who 4/1, info: user, depth 8
d[i + 5] = 40                                 # depth 40 > KEV_STACK_MAXDEPTH
open(sys.argv[2], "wb").write(d)' "$cap" "$dir/badstack.kev"
got=$("$bin/kevstat" --folded "$dir/badstack.kev" 2>"$dir/badstack.err" | awk '{ s += $NF } END { print s + 0 }')
check "folded: a malformed STACK is left out ($got of $ticks) and said" \
    test "$got" = $((ticks - 1)) -a -n "$(grep '1 malformed STACK events left out' "$dir/badstack.err")"
"$bin/kevstat" --folded "$dir/basic20.kev" 2>&1 >/dev/null | grep -q 'has no stack samples'
check "folded: a capture without samples says so" test $? = 0
"$bin/kevstat" --folded --elf "$dir/none.elf" "$cap" >/dev/null 2>&1; check "folded: a missing ELF file exits 2" test $? = 2
finish
