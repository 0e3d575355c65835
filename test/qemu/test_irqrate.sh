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
# A board whose device timer keeps no rate in QEMU (netduinoplus2) and has instead a level line
# programs raise themselves (SWLINE_IRQ in its board_user.h) boots the irqpacetest image:
# user/apps/irqpace raises that line on each expiry of a 1 ms kernel timer, 150 times, and
# serves each raise as a driver does. There the truths are the program's own count of raises
# (exactly one interrupt entry each) and the timer's period (every gap within 2 %; the tick
# ran 0.8 % fast in QEMU there until SysTick was programmed from the core clock,
# docs/timers.md); an unmask that kept the NVIC's stale latch gave 300 for 150.
# kevstat over the same capture (test/qemu/irq_kevstat_check.py): the line's rate over the time
# it was active is the programmed rate (within 0.05%; 2% where the device merges late requests,
# x86-pc, or where a kernel timer paces the line, irqpace), and every interrupt of the line is in
# its interrupt-to-thread latency; kevsql's irq_latency view says the same.
#   test/qemu/test_irqrate.sh BOARD HOSTDIR
# Prints TAP.
set -u
board=$1
h=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
. test/qemu/capture_boot.sh
img=build/$board/irqtest.elf prog=irqrate
grep -q '^#define SWLINE_IRQ' "boards/$board/board_user.h" && img=build/$board/irqpacetest.elf prog=irqpace
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
rate=$(devtimer_rate_1khz "$board")
# x86-pc: the device's own record counts (capture_boot.sh's devtimer_qtrace, devtimer_record).
QTRACE=$(devtimer_qtrace "$board" "$out/qemu.trace")
device=
paced=
echo "1..$([ $prog = irqpace ] && echo 12 || echo 9)"
capture_boot "$board" "$img" $prog "$out" "$h" $QTRACE
rc=$?
sed 's/^/# /' "$out/run.log" | tail -8
if [ $prog = irqpace ]; then
    raised=$(sed -n 's/.*irqpace: \([0-9]*\) raises every.*/\1/p' "$out/run.log" | head -1)
    paced="--count ${raised:-0} --count-tol 0 --gap-tol 2"
    [ $rc = 0 ] && [ -n "$raised" ]
else
    [ $rc = 0 ] && grep -q 'irqrate: [0-9]* interrupts in' "$out/run.log"
fi
echo "$([ $? = 0 ] && echo ok || echo not ok) 1 - $board: $(basename "$img" .elf) boots, $prog runs to its end under a capture"
if [ -n "$QTRACE" ]; then
    device=$(devtimer_record "$out/qemu.trace")
    echo "# QEMU's trace of IRQ 8: requests,edges = $device"
fi
cps=$("$h/traceprinter" "$out/t.kev" 2>/dev/null | awk '/TRACE_CYCLES_PER_SEC::/ { print $2; exit }')
"$h/traceprinter" -m -p '%c %k %a' "$out/t.kev" 2>/dev/null |
    python3 test/qemu/irq_rate_check.py --start 210 --stop 211 --cps "${cps:-1}" --rate "$rate" \
        --tap-base 1 --label "$board" ${device:+--device "$device"} $paced
# The paced line: D over the capture too (the host's dtrace -i, as the board has none), the
# whole capture's entries on the line against the program's count of raises.
if [ $prog = irqpace ]; then
    line=$(sed -n 's/^#define SWLINE_IRQ \([0-9]*\).*/\1/p' "boards/$board/board_user.h")
    got=$("$h/dtrace" -q -i "$out/t.kev" -n "interrupt::irq$line:entry { @n = count(); }
        END { printa(\"%@d\", @n); }" 2>&1 | tr -d ' \n')
    [ -n "$raised" ] && [ "$got" = "$raised" ]
    echo "$([ $? = 0 ] && echo ok || echo not ok) 9 - $board: dtrace -i's interrupt::irq$line:entry fires $got times over the capture, once per raise ($raised)"
fi
k=$([ $prog = irqpace ] && echo 9 || echo 6)
tol=0.05
{ [ "$board" = x86-pc ] || [ $prog = irqpace ]; } && tol=2
while read -r st text; do
    k=$((k + 1))
    echo "$([ "$st" = 0 ] && echo ok || echo not ok) $k - $board: $text"
done < <(python3 test/qemu/irq_kevstat_check.py "$h/kevstat" "$out/t.kev" $tol "$h/kevsql")
