#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Lost timer pulses are trace events (TAP): the image pulselosttest runs user/apps/pulselost,
# whose timer fires 24 times into a channel nobody receives on; the kernel queues 16 (a
# process's bound on queued pulses) and loses 8. The truths: the program's own count (shots
# less the pulses it received afterwards) and the kernel's rule (8). The capture must hold one
# TIMER_LOST event per lost pulse, for the program's timer and pid, the last one's running
# count equal to the program's; traceprinter, kevstat (text and JSON), kevtable, kev2json and
# babeltrace2 over kev2ctf's output must all show them (kev2perfetto: every row, test_event_table.sh).
# One boot under QEMU_ICOUNT=exact, about 3 s.
#   BOARD=<board> test/qemu/test_pulse_lost.sh BUILD_DIR HOST_DIR
set -u
b=$1
h=$2
board=${BOARD:-mps2-an385}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
out=$b/test-pulse-lost
rm -rf "$out" && mkdir -p "$out"
TAP_PREFIX="$board: "
. test/qemu/tap_lib.sh
BOARD=$board QEMU_ICOUNT=exact QEMU_ARGS="appinit pulselost ;; tracelogger -d1 -f $out/t.kev" \
    QEMU_TIMEOUT=60 scripts/qemu-run.sh "$b/pulselosttest.elf" >"$out/run.log" 2>&1
ok $? "pulselosttest boots, runs pulselost under the tracelogger and exits 0"
grep -a 'pulselost: \|tracelogger: no\|timer pulse' "$out/run.log" | sed 's/^/# /'
line=$(grep -a 'pulselost: timer' "$out/run.log" | head -1)
timer=$(sed -n 's/.*pulselost: timer \([0-9]*\) .*/\1/p' <<<"$line")
lost=$(sed -n 's/.* lost \([0-9]*\).*/\1/p' <<<"$line")
grep -aq 'pulselost: done' "$out/run.log" && grep -aq 'tracelogger: no events lost' "$out/run.log"
ok $? "pulselost ends well, the logger loses no event"
[ "$lost" = 8 ]
ok $? "the program lost ${lost:-?} pulses, as the kernel's bound says (24 shots, 16 queued)"
pid=$(grep -a 'kernel: timer pulse to pid' "$out/run.log" | sed -n 's/.*to pid \([0-9]*\) lost.*/\1/p' | head -1)
[ "$(grep -ac 'kernel: timer pulse to pid' "$out/run.log")" = 1 ] && [ -n "$pid" ]
ok $? "the console says the timer's first loss once (pid ${pid:-?}), not each"

"$h/kevtable" "$out/t.kev" >"$out/table.txt" 2>"$out/kevtable.err"
ok $? "kevtable reads the capture"
grep -a 'TIMER_LOST' "$out/table.txt" >"$out/lost.txt"
got=$(grep -c . "$out/lost.txt")
[ "$got" = "$lost" ]
ok $? "the capture holds $got TIMER_LOST events, the program counted ${lost:-?}"
last=$(tail -1 "$out/lost.txt")
grep -q "timer_id=0x0*$timer\b" <<<"$last" && grep -q "pid=$pid\b" <<<"$last" &&
    grep -q "lost=$lost\b" <<<"$last"
ok $? "the last TIMER_LOST names timer $timer of pid $pid and its running count $lost: $last"
seq 1 "$lost" >"$out/want.txt"
sed -n 's/.*lost=\([0-9]*\).*/\1/p' "$out/lost.txt" | cmp -s - "$out/want.txt"
ok $? "the events count 1 to $lost, one a loss"

"$h/traceprinter" "$out/t.kev" >"$out/tp.txt" 2>"$out/tp.err"
[ "$(grep -c ':TIMER_LOST ' "$out/tp.txt")" = "$lost" ] &&
    grep -q "^timer pulses lost: $lost " "$out/tp.txt"
ok $? "traceprinter prints each TIMER_LOST and its summary's count $lost"
"$h/kevstat" "$out/t.kev" >"$out/stat.txt" 2>"$out/stat.err"
grep -q "^$lost timer pulses lost" "$out/stat.txt"
ok $? "kevstat's heading says $lost timer pulses lost"
"$h/kevstat" --json "$out/t.kev" >"$out/stat.json" 2>>"$out/stat.err"
grep -q "\"timer_pulses_lost\":$lost," "$out/stat.json"
ok $? "kevstat --json's trace.timer_pulses_lost is $lost (the report's summary reads it)"
"$h/kev2json" -o "$out/t.json" "$out/t.kev" 2>"$out/kev2json.err"
[ "$(grep -c '"name":"TIMER_LOST"' "$out/t.json")" = "$lost" ] &&
    grep '"name":"TIMER_LOST"' "$out/t.json" | tail -1 | grep -q "\"lost\":$lost}"
ok $? "kev2json writes $lost TIMER_LOST events, the last count $lost"
"$h/kev2ctf" -o "$out/ctf" "$out/t.kev" >/dev/null 2>"$out/kev2ctf.err" &&
    babeltrace2 "$out/ctf" >"$out/bt.txt" 2>"$out/bt.err"
[ "$(grep -ci 'timer_lost' "$out/bt.txt")" = "$lost" ] && grep -qi "timer_lost.*lost = $lost\b" "$out/bt.txt"
ok $? "babeltrace2 over kev2ctf's output reads $lost TIMER_LOST events, the last count $lost"
echo "1..$n"
