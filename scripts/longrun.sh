#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The live stream held for a long run (make longrun; not in make test): on each board the demo
# loops (init loop=SECONDS idle=MS) with the tracelogger streaming live (-u) through QEMU_STREAM
# to a reader that stops reading for PAUSE seconds every EVERY seconds of the host's clock, so
# that the board drops and counts whole buffers again and again. On the way the 32-bit time
# and the 16-bit frame sequence numbers wrap. At the end the figures are printed and checked:
# the live stream's totals (its frames, read by test/qemu/stream_frames.py, and kevcapture's
# file), the file's (traceprinter) and the kernel's counters (the tracelogger's report) agree,
# and every lost event is counted once: LOSS frames = the logger's dropped buffers = the
# file's lost events less the kernel's.
#   scripts/longrun.sh [BOARD...]        (default: mps2-an385 qemu-virt-a53, one after another)
# Environment: LONGRUN_SECONDS (3600), LONGRUN_IDLE_MS (between rounds, 500), LONGRUN_EVERY
# (600) and LONGRUN_PAUSE (20): the reader's stops; LONGRUN_DIR (build/longrun): the outputs,
# one directory per board (the raw stream is deleted once checked: it is as large as the
# file). Exit status 0 when every board's checks passed.
. "$(dirname "$0")/script_help.sh" && script_help "$0" "${1:-}"
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
secs=${LONGRUN_SECONDS:-3600}
idle=${LONGRUN_IDLE_MS:-500}
every=${LONGRUN_EVERY:-600}
pause=${LONGRUN_PAUSE:-20}
top=${LONGRUN_DIR:-$here/build/longrun}
h=$here/build/host
boards=("$@")
[ ${#boards[@]} = 0 ] && boards=(mps2-an385 qemu-virt-a53)
. "$here/scripts/console.sh"
TL=$(con_from tracelogger)tracelogger
status=0

say() { echo "longrun: $*"; }
fail() { say "$board: FAILED: $*"; status=1; }
num() { tr -d , | awk '{ print $1 + 0 }'; }

one() {
    board=$1
    local out=$top/$board img=$here/build/$1/demo.elf port= qpid i
    rm -rf "$out" && mkdir -p "$out"
    [ -f "$img" ] || { fail "no $img (make BOARD=$board)"; return; }
    say "$board: ${secs}s of the demo in a loop, the reader stopping ${pause}s every ${every}s"
    local t0=$EPOCHSECONDS
    BOARD=$board QEMU_STREAM=tcp:0 QEMU_STREAM_OPTS="-s -b 262144" QEMU_TIMEOUT=$((secs * 3 + 600)) \
        QEMU_ARGS="init loop=$secs idle=$idle ;; tracelogger -d1 -u" \
        "$here/scripts/qemu-run.sh" "$img" >"$out/run.log" 2>&1 &
    qpid=$!
    for i in $(seq 100); do
        port=$(sed -n 's/^kevrelay: the trace stream is served on 127.0.0.1:\([0-9]*\)$/\1/p' "$out/run.log")
        [ -n "$port" ] && break
        sleep 0.1
    done
    [ -n "$port" ] || { fail "no relay port"; kill $qpid; return; }
    python3 "$here/test/qemu/stream_frames.py" read "$port" "$out/stream.raw" \
        --pause-every "$every" --pause "$pause"
    wait $qpid
    local qrc=$? t1=$EPOCHSECONDS
    "$h/kevcapture" -o "$out/live.kev" "$out/stream.raw" >"$out/kevcapture.log" 2>&1
    local crc=$?
    python3 "$here/test/qemu/stream_frames.py" parse "$out/stream.raw" >"$out/frames.txt"
    "$h/traceprinter" -n -p '%c' "$out/live.kev" 2>/dev/null | grep -E '^[0-9]+$' | tail -n 1 >"$out/last-time.txt"
    "$h/traceprinter" "$out/live.kev" 2>&1 | tail -n 4 >"$out/summary.txt"
    local rawbytes
    rawbytes=$(stat -c %s "$out/stream.raw")
    rm -f "$out/stream.raw"

    # The kernel's counters, the logger's drops, the file's and the stream's totals.
    local k gen rec kd ko refused fev flost frames loss hb bad gaps end xoffs rounds tlast
    k=$(sed -nE "s#${TL}: the kernel generated ([0-9,]*) events: recorded ([0-9,]*), dropped ([0-9,]*), overwritten ([0-9,]*)\$#\1 \2 \3 \4#p" "$out/run.log" | tr -d ,)
    read -r gen rec kd ko <<<"${k:-x x x x}"
    refused=$(sed -nE "s#${TL}: the stream's host did not take [0-9]* buffers \(([0-9,]*) events\).*#\1#p" "$out/run.log" | num)
    fev=$(sed -n 's/^events: \([0-9]*\) in .*/\1/p' "$out/summary.txt")
    flost=$(sed -n 's/^lost events: \([0-9]*\).*/\1/p' "$out/summary.txt")
    read -r frames loss hb bad gaps end <<<"$(awk '$1 == "frames" { print $2, $8, $6, $10, $12, $16 }' "$out/frames.txt")"
    xoffs=$(sed -n 's/^kevrelay: .* XOFF sent \([0-9]*\) times$/\1/p' "$out/run.log")
    rounds=$(sed -n 's/.*init: \([0-9]*\) rounds in \([0-9]*\) s$/\1 \2/p' "$out/run.log")
    tlast=$(cat "$out/last-time.txt")
    local episodes
    episodes=$(awk '$1 == "loss"' "$out/frames.txt" | wc -l)
    say "$board: host time $((t1 - t0)) s; rounds and guest seconds: ${rounds:-?}; QEMU status $qrc"
    say "$board: stream $rawbytes bytes in $frames frames (the 16-bit sequence wrapped $((frames / 65536)) times), $hb heartbeats, bad CRC $bad, gaps $gaps, END $end; XOFF ${xoffs:-?} times"
    say "$board: the kernel generated $gen events: recorded $rec, dropped $kd, overwritten $ko"
    say "$board: the logger dropped ${refused:-0} events for the host, in $episodes LOSS frames totalling $loss"
    say "$board: the live file: $fev events, $flost lost; its last event at cycle $tlast (the 32-bit time wrapped $(( ${tlast:-0} >> 32 )) times)"
    [ "$qrc" = 0 ] && grep -q 'init: demo system done, 0 failures' "$out/run.log" || fail "the run failed (status $qrc)"
    [ $((t1 - t0)) -ge "$secs" ] || fail "shorter than ${secs}s of host time"
    [ "$crc" = 0 ] && [ "$bad" = 0 ] && [ "$gaps" = 0 ] && [ "$end" = OK ] || fail "the stream is damaged (kevcapture $crc)"
    [ $((rec + kd + ko)) = "$gen" ] || fail "the kernel's counts do not add up"
    [ "$((fev + flost))" = "$gen" ] || fail "file events + lost != generated"
    [ "$flost" = $(( ${refused:-0} + kd + ko )) ] || fail "file lost != the logger's drops + the kernel's"
    [ "$loss" = "${refused:-0}" ] || fail "LOSS frames != the logger's drops"
    grep -q "reported ${loss} events lost in" "$out/kevcapture.log" || [ "$loss" = 0 ] ||
        fail "kevcapture's LOSS total is not the frames'"
    [ "${xoffs:-0}" -ge 1 ] && [ "$episodes" -ge 1 ] || fail "the reader's stops cost nothing: no XOFF"
    [ "$frames" -gt 65536 ] || fail "the frame sequence did not wrap"
    [ $(( ${tlast:-0} >> 32 )) -ge 1 ] || fail "the 32-bit time did not wrap"
}

for b in "${boards[@]}"; do one "$b"; done
[ $status = 0 ] && say "every check passed" || say "FAILED"
exit $status
