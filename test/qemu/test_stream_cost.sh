#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What the UART stream costs the board (TAP), on the trace the stream carried: the demo under
# QEMU_ICOUNT=exact streamed with the tracelogger's defaults and no host file (-u -f -: the
# UART is the storage, as on a desk); the stream read by test/qemu/stream_frames.py (its own
# CRC-32s, zlib's, and the END frame's whole-file CRC) and rebuilt by kevcapture. The truths: the kernel's own thread states as traceprinter prints
# them (the logger's CPU is the time from each of its THRUNNING events to the next THRUNNING
# on its CPU, summed by this script), kevstat's figure for the same thread, and the image's
# programs' priorities (app.mk PRIO: the lowest but the background worker's 5 is the
# client's 10).
#   - the logger's CPU is at most 5% of the trace's span at the demo's event rate, and kevstat
#     says the same within 0.1 point;
#   - by default it sends below the image's programs but the background worker: it says
#     priority 9, and the trace shows it lowered to 9 from its own 200 (buffers are taken at
#     200);
#   - the UART backs up (QEMU's second serial a socket read slowly): the logger waits for the
#     UART's transmit interrupt (its -v count of waits is not 0) and the stream is still whole:
#     every frame's CRC good, no sequence gap, the END frame's length and file CRC right.
# Two boots, about 15 s on an idle machine.
#   BOARD=<board> test/qemu/test_stream_cost.sh BUILD_DIR HOST_DIR
set -u
b=$1
h=$2
board=${BOARD:-mps2-an385}
out=$b/test-stream-cost
rm -rf "$out" && mkdir -p "$out"
here=$(dirname "$0")
run=$here/../../scripts/qemu-run.sh
TAP_PREFIX="$board: "
. "$here/tap_lib.sh"
sf() { python3 "$here/stream_frames.py" "$@"; }
field() { sed -n "s/^frames .* $1 \([0-9A-Z]*\).*/\1/p" "$2"; }

# ---- the demo streamed, the logger's defaults ------------------------------------------------
# The UART into a file (QEMU_UART1): a host that keeps up, so that the figure is the board's
# own cost, the same every run in the exact mode (a live reader on a loaded host makes the
# logger wait, which costs it nothing, and leaves part of its sending past the trace's end).
QEMU_UART1=$out/demo.raw QEMU_ICOUNT=exact QEMU_TIMEOUT=120 \
    QEMU_ARGS="init loop=3 idle=200 ;; tracelogger -d1 -u -f -" \
    "$run" "$b/demo.elf" >"$out/demo.log" 2>&1
ok $? "the demo streamed on the UART with -u -f - exits 0"
sf parse "$out/demo.raw" >"$out/demo.frames"
"$h/kevcapture" -q -o "$out/demo.kev" "$out/demo.raw" >"$out/capture.log" 2>&1
check "the stream is whole: END $(field end "$out/demo.frames"), $(field gaps "$out/demo.frames") gaps, $(field bad_crc "$out/demo.frames") bad CRCs (stream_frames.py's zlib CRC-32s)" \
    "[ '$(field end "$out/demo.frames") $(field gaps "$out/demo.frames") $(field bad_crc "$out/demo.frames")' = 'OK 0 0' ]"
grep -a 'tracelogger: sending\|tracelogger: no events lost' "$out/demo.log" | sed 's/^/# /'
check "the logger says it sends at priority 9, below the image's programs (the client's 10; the worker is background)" \
    "grep -aq \"tracelogger: sending the stream at priority 9, below the image's programs\" $out/demo.log"
"$h/traceprinter" -n -p '%c|%C|%z|%a' "$out/demo.kev" >"$out/demo.tp" 2>"$out/tp.err"
lowered=$(grep -c '^[0-9]*|[0-9]*|PRIO_CHANGE *|.*priority:9 old:200 .*(tracelogger/main)' "$out/demo.tp")
check "the trace shows the logger lowered from 200 to 9 ${lowered:-0} times" "[ ${lowered:-0} -ge 1 ]"
# The logger's CPU from the thread states: each THRUNNING starts its thread on its CPU, the next
# THRUNNING on that CPU ends it; the span is the first event to the last.
read -r lus span evs <<<"$(awk -F'|' '
    $1 !~ /^[0-9]+$/ { next }
    !first { first = $1 }
    { last = $1; if ($3 !~ /^(BUFFER_END|TIME)/) n++ }
    $3 ~ /^THRUNNING/ {
        if ($2 in who && who[$2] ~ /\(tracelogger\//) cpu += $1 - since[$2]
        who[$2] = $4; since[$2] = $1
    }
    END {
        for (c in who) if (who[c] ~ /\(tracelogger\//) cpu += last - since[c]
        printf "%.0f %.0f %d\n", cpu / 25, (last - first) / 25, n
    }' "$out/demo.tp")"
pct=$(awk -v a="${lus:-0}" -v s="${span:-1}" 'BEGIN { printf "%.2f", 100 * a / s }')
rate=$(awk -v e="${evs:-0}" -v s="${span:-1}" 'BEGIN { printf "%.0f", e * 1e6 / s }')
echo "# the logger ran ${lus:-?} us of ${span:-?} us ($pct%), ${evs:-?} events, $rate a second"
check "the logger's CPU for the stream is ${pct}% of the span (at most 5%) at the demo's $rate events/s" \
    "awk -v p=$pct 'BEGIN { exit !(p > 0 && p <= 5) }'"
kpct=$("$h/kevstat" -s cpu "$out/demo.kev" 2>/dev/null | awk '$1 == "tracelogger/main" { s += $3 } END { printf "%.2f", s }')
check "kevstat's share for the logger ($kpct%) is the thread states' ($pct%) within 0.1 point" \
    "awk -v a=$kpct -v b=$pct 'BEGIN { d = a - b; exit !(d < 0.1 && d > -0.1) }'"
check "no timer pulse lost while it streamed (no TIMER_LOST, no console line)" \
    "! grep -q '|TIMER_LOST|' $out/demo.tp && ! grep -aq 'timer pulse to pid' $out/demo.log"

# ---- the UART backs up ------------------------------------------------------------------------
# QEMU's second serial port a socket that a reader drains 4 KiB at a time, 20 ms apart, through
# a small receive buffer: QEMU holds the UART's buffer full while the socket is (its write
# failed), and the logger waits for the interrupt.
python3 -c 'import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
for _ in range(300):
    try:
        s.connect(sys.argv[1])
        break
    except OSError:
        time.sleep(0.1)
with open(sys.argv[2], "wb") as f:
    while True:
        b = s.recv(4096)
        if not b:
            break
        f.write(b)
        time.sleep(0.02)' "$out/slow.sock" "$out/slow.raw" &
rpid=$!
QEMU_ICOUNT=exact QEMU_TIMEOUT=120 QEMU_ARGS="init loop=1 idle=200 ;; tracelogger -d1 -v -u -f -" \
    "$run" "$b/demo.elf" -chardev "socket,id=slow,path=$out/slow.sock,server=on,wait=on" \
    -serial chardev:slow >"$out/slow.log" 2>&1
rc=$?
wait $rpid
ok $rc "the demo with a slow reader on the UART exits 0"
read -r waits irqs <<<"$(sed -n 's/.*UART 1 carried .* waits for room \([0-9,]*\), \([0-9,]*\) ended by its interrupt).*/\1 \2/p' "$out/slow.log" | tr -d ,)"
sf parse "$out/slow.raw" >"$out/slow.frames"
echo "# the logger waited for the UART ${waits:-?} times, ${irqs:-?} of them ended by its interrupt"
check "the logger waited for the UART's transmit interrupt ${waits:-0} times, and the stream is whole: END $(field end "$out/slow.frames"), $(field gaps "$out/slow.frames") gaps, $(field bad_crc "$out/slow.frames") bad CRCs" \
    "[ \${waits:-0} -gt 0 ] && [ '$(field end "$out/slow.frames") $(field gaps "$out/slow.frames") $(field bad_crc "$out/slow.frames")' = 'OK 0 0' ]"
echo "1..$n"
