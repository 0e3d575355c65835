#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every device interrupt arrives once, at the rate the device was programmed at. Boots the
# irqtest image (appinit, irqrate, the tracelogger) under -icount, so that the device's clock
# and the trace's are the same deterministic instruction clock: irqrate runs the board's device
# timer at 1 kHz (x86-pc's RTC: 1024 Hz, its nearest rate) for 150 ms through the normal
# driver path (InterruptAttachEvent, pulse, acknowledge, InterruptUnmask). The capture, decoded
# on the host by traceprinter, must hold duration x rate interrupt entries on the line (+-2)
# and no two closer than half a period (the NVIC's stale pending bit delivered each one twice,
# the second ~1 us after InterruptUnmask). The rate each board's device runs at is written
# here, from its datasheet/QEMU model, not taken from the program.
#   test/qemu/test_irqrate.sh BOARD HOSTDIR
# Prints TAP.
set -u
board=$1
h=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
. test/qemu/capture_boot.sh
img=build/$board/irqtest.elf
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
rate=$(devtimer_rate_1khz "$board")
# x86-pc: QEMU's RTC runs its periodic timer late now and then under -icount and catches up with
# two requests at once, the second while the line is still high: the 8259 (edge-triggered) sees
# one edge for both. So there the device's own record counts: QEMU's trace of the line (IRQ 8,
# the slave PIC's line 0) gives the requests the RTC raised (held against the rate) and the
# rising edges (each must be one interrupt in the capture).
QTRACE=
device=
[ "$board" = x86-pc ] && QTRACE="-trace pic_set_irq -D $out/qemu.trace"
echo "1..6"
capture_boot "$board" "$img" irqrate "$out" "$h" $QTRACE
rc=$?
sed 's/^/# /' "$out/run.log" | tail -8
[ $rc = 0 ] && grep -q 'irqrate: [0-9]* interrupts in' "$out/run.log"
echo "$([ $? = 0 ] && echo ok || echo not ok) 1 - $board: irqtest boots, irqrate runs to its end under a capture"
if [ -n "$QTRACE" ]; then
    device=$(awk '/pic_set_irq master 0 irq 0 level 1/ { r++; if (!hi) e++; hi = 1 }
                  /pic_set_irq master 0 irq 0 level 0/ { hi = 0 }
                  END { printf "%d,%d", r, e }' "$out/qemu.trace")
    echo "# QEMU's trace of IRQ 8: requests,edges = $device"
fi
cps=$("$h/traceprinter" "$out/t.kev" 2>/dev/null | awk '/TRACE_CYCLES_PER_SEC::/ { print $2; exit }')
"$h/traceprinter" -m -p '%c %k %a' "$out/t.kev" 2>/dev/null |
    python3 test/qemu/irq_rate_check.py --start 210 --stop 211 --cps "${cps:-1}" --rate "$rate" \
        --tap-base 1 --label "$board" ${device:+--device "$device"}
