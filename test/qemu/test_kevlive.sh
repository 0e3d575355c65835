#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# kevlive on a running board (TAP): the demo, looped, streams its trace live (tracelogger -u,
# the flush interval on) through QEMU_STREAM's relay to a reader that forwards it to kevlive
# and stops reading for 3 s on the way (test/qemu/stream_frames.py: the relay stops the board,
# which drops whole buffers and sends LOSS frames); babeltrace2 is attached live to kevlive.
# The truths: the console's lines stamped by the host (the system still ran when babeltrace2
# printed its first event), the file the board wrote through semihosting in the same run
# (babeltrace2 over kev2ctf's conversion of it: the same events; traceprinter's and kevtop's
# lost counts: babeltrace2's discarded events; kevlive's own copy: the same bytes). On a board
# with several CPUs, the idle ones' beacons keep babeltrace2's merge moving.
#   BOARD=<board> test/qemu/test_kevlive.sh BUILD_DIR HOST_DIR
set -u
export TZ=UTC
b=$1
h=$2
out=$b/test-kevlive
rm -rf "$out" && mkdir -p "$out"
here=$(dirname "$0")
run=$here/../../scripts/qemu-run.sh
board=${BOARD:-mps2-an385}
. "$here/tap_lib.sh"
stamp() { python3 -c 'import sys, time
for l in sys.stdin:
    print("%.3f %s" % (time.monotonic(), l), end="")
    sys.stdout.flush()'; }
discarded() { sed -n 's/.*Tracer discarded \([0-9]*\) events.*/\1/p' "$1" | awk '{ s += $1 } END { print s + 0 }'; }
echo "1..5"

mkfifo "$out/live.fifo"
"$h/kevlive" -p 0 -w 5 -o "$out/live.kev" "$out/live.fifo" 2>"$out/kevlive.err" &
kpid=$!
# the relay's buffer at its smallest (128 KiB: XOFF at 64 KiB), the demo looped 5 s
QEMU_STREAM=tcp:0 QEMU_STREAM_OPTS="-b 131072" QEMU_TIMEOUT=120 \
    QEMU_ARGS="init loop=5 ;; tracelogger -d1 -u -f $out/board.kev" \
    "$run" "$b/demo.elf" 2>&1 </dev/null | stamp >"$out/console.stamped" &
qpid=$!
port=
for _ in $(seq 200); do
    port=$(sed -n 's/.*kevrelay: the trace stream is served on 127.0.0.1:\([0-9]*\)$/\1/p' "$out/console.stamped")
    [ -n "$port" ] && break
    sleep 0.05
done
python3 "$here/stream_frames.py" read "${port:-0}" "$out/live.fifo" --pause-after 30000 --pause 3 &
url=
for _ in $(seq 200); do
    url=$(sed -n 's/^kevlive: babeltrace2 \(net:.*\)$/\1/p' "$out/kevlive.err")
    [ -n "$url" ] && break
    sleep 0.05
done
timeout 120 babeltrace2 --no-delta "${url:-net://localhost:1/host/none/kev}" \
    --params=session-not-found-action=end 2>"$out/bt2.err" | stamp >"$out/bt2.stamped"
wait $qpid
wait $kpid
krc=$?
wait
cut -d' ' -f2- "$out/bt2.stamped" >"$out/bt2.txt"

done_at=$(grep -m1 'demo system done' "$out/console.stamped" | cut -d' ' -f1)
first=$(head -1 "$out/bt2.stamped" | cut -d' ' -f1)
check "babeltrace2 attached live printed its first event while the system ran (at ${first:-none}; the console said the demo was done at ${done_at:-never})" \
    "[ -n '$first' ] && [ -n '$done_at' ] && python3 -c 'import sys; sys.exit(0 if $first < $done_at else 1)'"
rm -rf "$out/board.ctf"
"$h/kev2ctf" -o "$out/board.ctf" "$out/board.kev" 2>/dev/null
babeltrace2 --no-delta "$out/board.ctf" >"$out/board.txt" 2>"$out/board.bt2err"
check "at the end, babeltrace2's $(wc -l <"$out/bt2.txt") events are those of babeltrace2 over kev2ctf's conversion of the board's file" \
    "[ -s '$out/board.txt' ] && cmp -s '$out/board.txt' '$out/bt2.txt' && ! grep -qE 'ERROR|CAUSED BY' '$out/bt2.err'"
tp=$("$h/traceprinter" "$out/board.kev" 2>/dev/null | sed -n 's/^lost events: \([0-9]*\).*/\1/p')
top=$("$h/kevtop" -b -d 3600 "$out/board.kev" | sed -n 's/^loss: .*, \([0-9]*\) in all$/\1/p' | tail -1)
live=$(discarded "$out/bt2.err")
frames=$(grep -c 'the board lost' "$out/kevlive.err")
check "the reader's pause cost the board whole buffers (${frames} LOSS frames): babeltrace2 says $live events discarded, traceprinter ${tp:-?} lost, kevtop ${top:-?}" \
    "[ '$live' -gt 0 ] && [ '$live' = '${tp:-x}' ] && [ '$live' = '${top:-y}' ] && [ $frames -gt 0 ]"
check "the file kevlive wrote as it served is the board's byte for byte; kevlive exit 0 (exit $krc)" \
    "[ -s '$out/board.kev' ] && cmp -s '$out/board.kev' '$out/live.kev' && [ $krc = 0 ]"
check "babeltrace2 said nothing but the discarded events (no error, no two messages it could not order)" \
    "[ \"\$(grep -vc 'Tracer discarded' '$out/bt2.err')\" = 0 ]"
