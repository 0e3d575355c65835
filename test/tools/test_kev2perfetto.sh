#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# kev2perfetto: the protobuf trace decodes (check_perfetto.py's own wire-format reader, and
# Debian's protoc by Perfetto's own names and numbers, perfetto_subset.proto: every field
# named, the same packets, events and args as check_perfetto.py's reader sees; its priority
# and ready-thread counters and thread-state slices equal to traceprinter's events), keeps
# the rules Perfetto's trace processor imports ftrace by (sched continuity, waking before
# runnable, FtraceEvent.pid, loss reaching its stats, clock snapshot, process tree) on the
# scripted scenarios, kevgen traces with every overrun policy in both byte orders and two
# CPUs, and its scheduling, wake-up and interrupt events match the scenarios; user events are
# instants with args by the importer's rules for debug annotations; damaged input.
# usage: test_kev2perfetto.sh [BINDIR [SCRATCHDIR]]  (defaults: build/host build/host-test/kevconv)
set -u
bin=${1:-build/host}
here=$(dirname "$0")
. "$here/tap.sh"
scratch perfetto "${2:-build/host-test/kevconv}"
need python3
need babeltrace2
need protoc

# protos NAME PFTRACE VIEW KEV: protoc decodes PFTRACE by Perfetto's own schema, every field
# named, and that decode equals check_perfetto.py -v's VIEW (check_perfetto_protoc.py); its
# counters and thread-state slices are traceprinter's priorities, states and ready threads of
# KEV (check_perfetto_states.py).
protos() {
    local line
    python3 "$here/check_perfetto_protoc.py" -c "$3.counters" "$here/perfetto_subset.proto" "$2" "$3" >"$3.tap" 2>&1 ||
        grep -q '^not ok' "$3.tap" || echo "not ok 0 - check_perfetto_protoc.py failed" >>"$3.tap"
    "$bin/traceprinter" -n -m -p '%c|%C|%Z|%z|%a' "$4" >"$3.tp"
    python3 "$here/check_perfetto_states.py" "$3.tp" "$3.counters" >>"$3.tap" 2>&1 ||
        grep -q '^not ok' "$3.tap" || echo "not ok 0 - check_perfetto_states.py failed" >>"$3.tap"
    while IFS= read -r line; do
        case $line in
            "ok "*) ok "$1: by Perfetto's protos: ${line#ok * - }" ;;
            "not ok "*) notok "$1: by Perfetto's protos: ${line#not ok * - }" ;;
            *) echo "$line" ;;
        esac
    done <"$3.tap"
}

for s in basic kbasic loss; do
    k=; [ "${s#k}" != "$s" ] && k=-k
    "$bin/kevscen" $k "${s#k}" "$dir/$s.kev" >"$dir/$s.expect"
    if ! "$bin/kev2perfetto" -o "$dir/$s.pftrace" "$dir/$s.kev" 2>"$dir/$s.err"; then
        notok "$s: kev2perfetto converts" "$(cat "$dir/$s.err")"; continue; fi
    running=$("$bin/traceprinter" "$dir/$s.kev" | sed -n '/SNAPSHOT *what:1 /,$p' | grep -c THRUNNING)
    lost=$(kev_counts "$dir/$s.kev"); lost=${lost#* }
    python3 "$here/check_perfetto.py" -l "$lost" -b 1795240800 -v "$dir/$s.view" "$dir/$s.pftrace" "$dir/$s.expect" "$running" >"$dir/$s.tap" 2>&1
    rc=$?
    grep -q '^not ok' "$dir/$s.tap" || [ "$rc" = 0 ] || echo "not ok 0 - check_perfetto.py exit $rc" >>"$dir/$s.tap"
    while IFS= read -r line; do
        case $line in
            "ok "*) ok "$s: ${line#ok * - }" ;;
            "not ok "*) notok "$s: ${line#not ok * - }" ;;
            *) echo "$line" ;;
        esac
    done <"$dir/$s.tap"
    protos "$s" "$dir/$s.pftrace" "$dir/$s.view" "$dir/$s.kev"
done

# rules NAME KEV: converts and checks by trace processor's rules with the .kev's loss count.
rules() {
    local lost
    "$bin/kev2perfetto" -o "$dir/$1.pftrace" "$2"
    lost=$(kev_counts "$2"); lost=${lost#* }
    python3 "$here/check_perfetto.py" -l "$lost" "$dir/$1.pftrace" >"$dir/$1.tap" 2>&1
    check "$1: decodes and keeps trace processor's rules ($lost lost)" \
        test -z "$(grep '^not ok' "$dir/$1.tap")" -a -n "$(grep '^ok.*the trace decodes' "$dir/$1.tap")"
    grep -A1 '^not ok' "$dir/$1.tap"
}
for p in switch overwrite ring fill; do
    for b in "" -b; do
        "$bin/kevgen" $b -x $p -k 8 -d 0 -n 100000 -o "$dir/$p$b.kev" >/dev/null
        rules "kevgen $p ${b:+big-endian}" "$dir/$p$b.kev"
    done
done
${KEVSCEN4:-build/host-test/kevscen4} smp "$dir/smp.kev" >/dev/null
rules smp "$dir/smp.kev"
python3 "$here/check_perfetto.py" -v "$dir/smp.view" "$dir/smp.pftrace" >/dev/null 2>&1
protos smp "$dir/smp.pftrace" "$dir/smp.view" "$dir/smp.kev"
# Events lost while a thread is blocked (kevgen: a slow logger over a small ring): its state
# slice ends at the DROPPED, with events_lost (the lost events may have ended the state).
"$bin/kevgen" -x ring -k 4 -d 100000 -n 60000 -o "$dir/lossy.kev" >/dev/null
"$bin/kev2perfetto" -o "$dir/lossy.pftrace" "$dir/lossy.kev"
python3 "$here/check_perfetto.py" -v "$dir/lossy.view" "$dir/lossy.pftrace" >/dev/null 2>&1
protos lossy "$dir/lossy.pftrace" "$dir/lossy.view" "$dir/lossy.kev"
check "lossy: a state slice open at a loss ends there, with events_lost" \
    grep -q '"events_lost": 1' "$dir/lossy.view.counters"
# Wake-ups across CPUs: the READY is written on the waker's CPU, the thread runs on its own.
${KEVSCEN4:-build/host-test/kevscen4} wake "$dir/wake.kev" >/dev/null
rules "wake across CPUs" "$dir/wake.kev"
# A main thread renamed with ThreadName: its sched_switch comm is the new name from then on.
read -r _ _ rtid rold rnew rt <<<"$(${KEVSCEN4:-build/host-test/kevscen4} wake "$dir/wake.kev" | grep '^expect rename ')"
comms=$(python3 "$here/check_perfetto.py" -c "$rtid" "$dir/wake across CPUs.pftrace" | sed -n 's/^# comm //p')
check "a renamed thread: comm $rold, then $rnew from the rename on (us $rt)" \
    python3 -c 'import sys; c=[l.split() for l in sys.argv[1].splitlines()]; t=int(sys.argv[4]);
sys.exit(0 if [x[1] for x in c] == [sys.argv[2], sys.argv[3]] and int(c[1][2]) >= t * 1000 else 1)' "$comms" "$rold" "$rnew" "$rt"
# All three converters on one trace, by their consumers' rules, agreeing on ids and priorities
# (protoc's decode and the counters: protos above).
for s in loss smp "overwrite-b"; do
    k=$dir/$s.kev; [ "$s" = loss ] && k=$dir/loss.kev; [ "$s" = overwrite-b ] && k=$dir/overwrite-b.kev
    nc=1; [ "$s" = smp ] && nc=2
    CONSUMERS_NO_PROTOC=1 "$here/check_consumers.sh" "$bin" "$k" "$dir/consumers-$s" "$nc" >"$dir/consumers-$s.tap" 2>&1
    check "$s: CTF, Perfetto and JSON by their consumers' rules, same ids and priorities" \
        test -z "$(grep '^not ok' "$dir/consumers-$s.tap")" -a -n "$(grep '^ok.*ids: ' "$dir/consumers-$s.tap")"
    grep -A1 '^not ok' "$dir/consumers-$s.tap"
done
check "two CPUs: a bundle per CPU" grep -q 'CPUs with events: 0,1$' "$dir/smp.tap"
# User events as instants with args (kevscen sync: a program registers code 101 and logs it
# twice): one instant per USER event traceprinter prints, the registered ones named as the
# script says ("wait_report: noise ran ..."), with the code and the formatted value.
want=$("$bin/kevscen" -s -r 2 sync "$dir/sync.kev" | sed -n 's/^expect user 101 2 \([a-z_]*\) /\1: /p')
nuser=$("$bin/traceprinter" "$dir/sync.kev" | grep -c 'USREVENT:')
"$bin/kev2perfetto" -o "$dir/sync.pftrace" "$dir/sync.kev"
python3 "$here/check_perfetto.py" -d "$dir/sync.inst" -v "$dir/sync.view" "$dir/sync.pftrace" >"$dir/sync.tap" 2>&1
protos sync "$dir/sync.pftrace" "$dir/sync.view" "$dir/sync.kev"
check "user events: $nuser instants with args by trace processor's rules, code 101 twice as '$want'" \
    python3 -c 'import json, sys
u = [x for x in map(json.loads, open(sys.argv[1])) if x["cat"] == ["user"]]
w = [x for x in u if x["args"].get("code") == 101]
sys.exit(0 if len(u) == int(sys.argv[2]) and len(w) == 2 and
         all(x["name"] == sys.argv[3] and x["args"]["value"] == sys.argv[3].split(": ", 1)[1]
             for x in w) else 1)' "$dir/sync.inst" "$nuser" "$want"
grep '^not ok' "$dir/sync.tap"
# The protoc check fails on a field Perfetto's schema does not give (track_event 99) and on a
# field of another wire type than the schema's (track_uuid as bytes), in one added packet.
python3 - "$dir/basic.pftrace" "$dir/badfield.pftrace" <<'PY'
import sys
def varint(x):
    out = b""
    while True:
        out += bytes([(x & 0x7f) | (0x80 if x > 0x7f else 0)])
        x >>= 7
        if not x:
            return out
def field(n, wt, payload):
    return varint(n << 3 | wt) + payload
def ld(n, b):
    return field(n, 2, varint(len(b)) + b)
te = field(9, 0, varint(3)) + ld(23, b"odd") + ld(11, b"\x01\x02") + field(99, 0, varint(7))
pkt = field(8, 0, varint(5)) + ld(11, te) + field(10, 0, varint(200))
open(sys.argv[2], "wb").write(open(sys.argv[1], "rb").read() + ld(1, pkt))
PY
python3 "$here/check_perfetto.py" -v "$dir/badfield.view" "$dir/badfield.pftrace" >/dev/null 2>&1
python3 "$here/check_perfetto_protoc.py" "$here/perfetto_subset.proto" "$dir/badfield.pftrace" \
    "$dir/badfield.view" >"$dir/badfield.tap" 2>&1
check "protoc check: exit 1 naming the unknown field and the one of another wire type" \
    test $? = 1 -a -n "$(grep -F "['Trace.packet.track_event.11', 'Trace.packet.track_event.99']" "$dir/badfield.tap")"
head -c 1000 "$dir/basic.pftrace" >"$dir/trunc.pftrace"
python3 "$here/check_perfetto_protoc.py" "$here/perfetto_subset.proto" "$dir/trunc.pftrace" \
    "$dir/basic.view" >"$dir/trunc.tap" 2>&1
check "protoc check: a truncated trace fails with protoc's message" \
    test $? = 1 -a -n "$(grep -F 'Failed to parse input' "$dir/trunc.tap")"
size=$(stat -c %s "$dir/basic.kev")
head -c $((size - 100)) "$dir/basic.kev" >"$dir/trunc.kev"
err=$("$bin/kev2perfetto" -o "$dir/trunc.pftrace" "$dir/trunc.kev" 2>&1); rc=$?
check "truncated file: exit 1 with a message" test "$rc" = 1 -a -n "$(grep -i truncated <<<"$err")"
"$bin/kev2perfetto" --help | grep -q '^usage: kev2perfetto'; check "--help prints usage" test $? = 0
"$bin/kev2perfetto" "$dir/basic.kev" >/dev/null 2>&1; check "missing -o exits 2" test $? = 2
finish
