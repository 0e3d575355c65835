#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What streaming the trace costs the board, in its own instructions per streamed event: the
# demo (three rounds, `init loop=3 idle=200`) under QEMU_ICOUNT=exact, its trace streamed with
# the tracelogger's defaults and no host file (-f -: the stream is the storage)
#   - on the UART (-u; QEMU's second serial port into a file, a host that keeps up),
#   - through RTT (-x rtt; kevrtt reading the ring through QEMU's gdbstub, as a probe would),
# and, for comparison, saved to a host file alone (semihosting, no stream). The figure is the
# tracelogger thread's CPU time from the capture's own thread states (kevstat -s cpu: the
# logger's instructions, its kernel calls included, since the exact mode's clock is the
# instruction count: 2^shift ns an instruction) over the events the capture holds; its share
# of the trace's span too (the demo's event rate, about 11,000 a second on mps2-an385).
#   scripts/bench-stream.sh BUILD_DIR HOST_DIR
. "$(dirname "$0")/script_help.sh" && script_help "$0" "${1:-}"
set -u
. "$(dirname "$0")/bench_dirs.sh" && bench_dirs stream "$1" "$2"
board=${BOARD:-mps2-an385}
demo="init loop=3 idle=200"
# ns an instruction in the board's exact mode (its qemu.sh's exact_icount, shift=N)
shift_n=$(sed -n 's/^exact_icount=shift=\([0-9]*\).*/\1/p' "$here/boards/$board/qemu.sh")
ns=$(( 1 << ${shift_n:-0} ))
fail() { echo "bench-stream: $1" >&2; exit 1; }

# figures NAME KEV: "instructions an event, CPU %" of the logger over the capture
figures() {
    local ev
    ev=$("$h/kevstat" "$2" 2>/dev/null | awk 'NR == 1 { print $1 }')
    "$h/kevstat" -s cpu "$2" 2>/dev/null | awk -v ev="${ev:-0}" -v ns="$ns" '
        /trace span/ { span = $6 }
        $1 == "tracelogger/main" { us += $2 }
        END { if (ev > 0 && span > 0) printf "%.0f %.2f\n", us * 1000 / ns / ev, us / (span * 10) }'
}

QEMU_UART1=$out/uart.raw QEMU_ICOUNT=exact QEMU_TIMEOUT=300 \
    QEMU_ARGS="$demo ;; tracelogger -d1 -u -f -" "$run" "$b/demo.elf" >"$out/uart.log" 2>&1 ||
    fail "the UART run failed ($out/uart.log)"
"$h/kevcapture" -q -o "$out/uart.kev" "$out/uart.raw" || fail "the UART stream is damaged"
read -r uart_ipe uart_pct <<<"$(figures uart "$out/uart.kev")"

gdb=$out/rtt.gdb   # the gdbstub on a UNIX socket: no port to collide with another run
rm -f "$gdb"
QEMU_ICOUNT=exact QEMU_TIMEOUT=300 QEMU_ARGS="$demo ;; tracelogger -d1 -x rtt -f -" \
    "$run" "$b/demo.elf" -gdb "unix:$gdb,server=on,wait=off" >"$out/rtt.log" 2>&1 &
qpid=$!
ram=$(sed -n 's/^APP_RAM_BASE *:= *\(0x[0-9a-fA-F]*\).*/\1/p' "$here/boards/$board/board.mk")
"$h/kevrtt" -q -g "unix:$gdb" -s "$ram:0x100000" -o "$out/rtt.raw" 2>"$out/kevrtt.log"
wait $qpid || fail "the RTT run failed ($out/rtt.log)"
"$h/kevcapture" -q -o "$out/rtt.kev" "$out/rtt.raw" || fail "the RTT stream is damaged"
read -r rtt_ipe rtt_pct <<<"$(figures rtt "$out/rtt.kev")"

QEMU_ICOUNT=exact QEMU_TIMEOUT=300 QEMU_ARGS="$demo ;; tracelogger -d1 -f $out/file.kev" \
    "$run" "$b/demo.elf" >"$out/file.log" 2>&1 || fail "the file run failed ($out/file.log)"
read -r file_ipe file_pct <<<"$(figures file "$out/file.kev")"

[ -n "${uart_ipe:-}" ] && [ -n "${rtt_ipe:-}" ] && [ -n "${file_ipe:-}" ] || fail "no figures"
echo "BENCH stream_uart_instructions_per_event $uart_ipe instructions"
echo "BENCH stream_uart_logger_cpu $uart_pct %"
echo "BENCH stream_rtt_instructions_per_event $rtt_ipe instructions"
echo "BENCH stream_rtt_logger_cpu $rtt_pct %"
echo "BENCH logger_file_instructions_per_event $file_ipe instructions"
echo "BENCH logger_file_logger_cpu $file_pct %"
