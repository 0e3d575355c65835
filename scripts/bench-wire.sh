#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The compact stream's bytes an event on the line (tracelogger -u, its buffers in KEY and
# SLOTS frames, trace/kev_wire.h; docs/tracelogger.md "The compact stream"), over three
# captures of different shape, every byte of the stream counted (the header, the KEY frames,
# the frames' own 12 bytes):
#   demo     mps2-an385's demo (init loop=3 idle=200): kernel calls, messages, interrupts
#   irq      mps2-an385's irqtest: the device timer at 1 kHz through the driver path, the
#            interrupt-rate test's image (docs/interrupts.md)
#   msgpipe  qemu-virt-a53's msgpipetest on its 4 CPUs: messages from CPU to CPU (a source,
#            workers, a sink), each CPU's buffers apart
# under QEMU_ICOUNT=exact (the same every run). mps2-an385's two stream on the trace UART and
# save the semihosted file in the same run: the file kevcapture rebuilds must be that file
# byte for byte, and kevwire's stream of the file must be the board's, byte for byte in
# length, or the bench fails; the 4-CPU capture (the UART there runs one CPU) is saved to its
# semihosted file and measured by kevwire, which the two others hold to the board's stream.
#   scripts/bench-wire.sh BUILD_DIR HOST_DIR [A53_BUILD_DIR]
. "$(dirname "$0")/script_help.sh" && script_help "$0" "${1:-}"
set -u
. "$(dirname "$0")/bench_dirs.sh" && bench_dirs wire "$1" "$2"
a53=${3:-}
fail() { echo "bench-wire: $1" >&2; exit 1; }
events() { "$h/kevstat" "$1" 2>/dev/null | awk 'NR == 1 { print $1 }'; }
wire_bytes() { "$h/kevwire" "$1" | sed -n 's/.* \([0-9]*\) bytes of stream.*/\1/p'; }

# streamed NAME IMAGE PROGRAMS: a capture streamed and saved; prints "BYTES EVENTS"
streamed() {
    QEMU_UART1=$out/$1.uart QEMU_ICOUNT=exact QEMU_TIMEOUT=300 \
        QEMU_ARGS="$3 ;; tracelogger -d1 -u -f $out/$1.kev" "$run" "$b/$2.elf" \
        >"$out/$1.log" 2>&1 || fail "the $1 run failed ($out/$1.log)"
    "$h/kevcapture" -q -o "$out/$1.back.kev" "$out/$1.uart" 2>>"$out/$1.log" ||
        fail "the $1 stream is damaged ($out/$1.log)"
    cmp -s "$out/$1.kev" "$out/$1.back.kev" || fail "the $1 stream's file is not the board's"
    local sb wb
    sb=$(stat -c %s "$out/$1.uart")
    wb=$(wire_bytes "$out/$1.kev")
    [ "$sb" = "$wb" ] || fail "$1: kevwire makes $wb bytes of stream, the board sent $sb"
    echo "$sb $(events "$out/$1.kev")"
}

read -r demo_b demo_e <<<"$(streamed demo demo 'init loop=3 idle=200')"
read -r irq_b irq_e <<<"$(streamed irq irqtest 'appinit irqrate')"
mp_b= mp_e=
if [ -n "$a53" ] && [ -f "$a53/msgpipetest.elf" ]; then
    BOARD=qemu-virt-a53 QEMU_ICOUNT=exact QEMU_TIMEOUT=300 \
        QEMU_ARGS="appinit msgpipe ;; tracelogger -d1 -f $out/msgpipe.kev" \
        "$run" "$a53/msgpipetest.elf" >"$out/msgpipe.log" 2>&1 || fail "the msgpipe run failed"
    mp_b=$(wire_bytes "$out/msgpipe.kev")
    mp_e=$(events "$out/msgpipe.kev")
fi
[ -n "$demo_e" ] && [ -n "$irq_e" ] || fail "no figures"
per() { awk -v b="$1" -v e="$2" 'BEGIN { printf "%.2f", b / e }'; }
echo "BENCH wire_bytes_per_event_demo $(per "$demo_b" "$demo_e") bytes"
echo "BENCH wire_bytes_per_event_irq $(per "$irq_b" "$irq_e") bytes"
if [ -n "$mp_e" ]; then
    echo "BENCH wire_bytes_per_event_msgpipe $(per "$mp_b" "$mp_e") bytes"
    echo "BENCH wire_bytes_per_event_mean $(awk -v a="$(per "$demo_b" "$demo_e")" \
        -v b="$(per "$irq_b" "$irq_e")" -v c="$(per "$mp_b" "$mp_e")" \
        'BEGIN { printf "%.2f", (a + b + c) / 3 }') bytes"
fi
echo "BENCH wire_file_per_stream_demo $(per "$(stat -c %s "$out/demo.kev")" "$demo_b") x"
