#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Events per second the trace stream's transports carry, measured the same way for both:
# tflood inserts 20000 user events while the tracelogger sends the stream through one
# transport (-u: UART 1; -x rtt: the RTT up-channel, read by kevrtt through QEMU's gdbstub as
# a probe would), under -icount shift=0; the logger counts the cycles it spends handing frames
# to the transport (for RTT including its waits for the stand-in probe) and reports events per
# second of that time. The UART's figure is then bounded by its line rate (BOARD_TRACE_UART_BAUD
# in board_user.h, 10 bits a byte: QEMU sends at any rate, a wire does not); the RTT figure is
# the stand-in's (a real probe reads at its own speed, typically 1-2 MB/s over SWD).
#   scripts/bench-rtt.sh BUILD_DIR HOST_DIR
. "$(dirname "$0")/script_help.sh" && script_help "$0" "${1:-}"
set -u
. "$(dirname "$0")/bench_dirs.sh" && bench_dirs rtt "$1" "$2"
board=${BOARD:-mps2-an385}
rate() { sed -n -e "s#^[0-9]*/tracelogger: ##" -e "s/^tracelogger: $1 carried \([0-9,]*\) events\/s.*/\1/p" "$2" | tr -d ,; }

QEMU_SMP=1 QEMU_ICOUNT=1 QEMU_TIMEOUT=300 QEMU_UART1=$out/u.uart \
    QEMU_ARGS="tracelogger -d1 -v -u -f $out/uart.kev -A flood=20000" \
    "$run" "$b/tflood.elf" >"$out/uart.log" 2>&1
urate=$(rate "UART 1" "$out/uart.log")
gdb=$out/rtt.gdb   # the gdbstub on a UNIX socket: no port to collide with another run
rm -f "$gdb"
QEMU_SMP=1 QEMU_ICOUNT=1 QEMU_TIMEOUT=300 \
    QEMU_ARGS="tracelogger -d1 -v -x rtt -f $out/rtt.kev -A flood=20000" \
    "$run" "$b/tflood.elf" -gdb "unix:$gdb,server=on,wait=off" >"$out/rtt.log" 2>&1 &
qpid=$!
ram=$(sed -n 's/^APP_RAM_BASE *:= *\(0x[0-9a-fA-F]*\).*/\1/p' "$here/boards/$board/board.mk")
"$h/kevrtt" -q -g "unix:$gdb" -s "$ram:0x100000" -o "$out/rtt.stream" 2>"$out/kevrtt.log"
wait $qpid
rrate=$(rate RTT "$out/rtt.log")
if [ -z "$urate" ] || [ -z "$rrate" ] || ! "$h/kevcapture" -q -o "$out/rtt2.kev" "$out/rtt.stream" ||
   ! cmp -s "$out/rtt.kev" "$out/rtt2.kev"; then
    tail -n 3 "$out/uart.log" "$out/rtt.log" "$out/kevrtt.log" >&2
    echo "bench-rtt: a capture failed" >&2
    exit 1
fi
baud=$(sed -n 's/^#define BOARD_TRACE_UART_BAUD \([0-9]*\).*/\1/p' "$here/boards/$board/board_user.h")
if [ -n "$baud" ]; then
    # The wire: baud/10 bytes a second, of which the file's share (frames add 12 bytes a KB).
    fb=$(stat -c %s "$out/uart.kev") sb=$(stat -c %s "$out/u.uart")
    wire=$(( baud / 10 * fb / sb / 16 ))
    echo "BENCH trace_uart_wire_events_per_s $wire events/s"
    [ "$wire" -lt "$urate" ] && urate=$wire
fi
echo "BENCH trace_uart_events_per_s $urate events/s"
echo "BENCH trace_rtt_events_per_s $rrate events/s"
