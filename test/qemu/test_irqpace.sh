#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every interrupt once, at the pace its line was raised, on a board whose device timer keeps no
# rate in QEMU (netduinoplus2: docs/interrupts.md). Boots the irqpacetest image (appinit,
# user/apps/irqpace, the tracelogger) under -icount: irqpace raises a level line (USART3's
# transmission-complete interrupt, board_user.h SWLINE_IRQ) on each expiry of a 1 ms kernel
# timer, 150 times, and serves each raise as a driver does (pulse, lower the line,
# InterruptUnmask). The truths are the program's own count of raises and the timer's period:
# the capture (decoded by traceprinter on the host, as the board has no dtrace) must hold
# exactly one interrupt entry on the line per raise between irqpace's START and STOP events,
# the count of a 1 kHz pace over that window (+-2), no two arrivals closer than half a period
# (an unmask that kept the NVIC's stale latch delivered each raise twice, ~1 us apart), no
# gap over two periods, and every gap within 2 % of the period (the tick this board programs
# runs 0.8 % fast in QEMU: docs/boards.md "Clocks").
#   test/qemu/test_irqpace.sh BOARD HOSTDIR
# Prints TAP.
set -u
board=$1
h=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
. test/qemu/capture_boot.sh
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
PACE_HZ=1000                # irqpace's PERIOD_US of 1000: the pace it raises the line at
echo "1..8"
capture_boot "$board" "build/$board/irqpacetest.elf" irqpace "$out" "$h"
rc=$?
sed 's/^/# /' "$out/run.log" | tail -6
raised=$(sed -n 's/.*irqpace: \([0-9]*\) raises every.*/\1/p' "$out/run.log" | head -1)
[ $rc = 0 ] && [ -n "$raised" ]
echo "$([ $? = 0 ] && echo ok || echo not ok) 1 - $board: irqpacetest boots, irqpace raises its line to the end under a capture"
cps=$("$h/traceprinter" "$out/t.kev" 2>/dev/null | awk '/TRACE_CYCLES_PER_SEC::/ { print $2; exit }')
"$h/traceprinter" -m -p '%c %k %a' "$out/t.kev" 2>/dev/null |
    python3 test/qemu/irq_rate_check.py --start 210 --stop 211 --cps "${cps:-1}" --rate "$PACE_HZ" \
        --count "${raised:-0}" --count-tol 0 --gap-tol 2 --tap-base 1 --label "$board"
