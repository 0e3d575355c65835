#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# An application keeps its period while the tracelogger writes the trace out (issue 29,
# docs/x86.md). Boots the periodic image (user/apps/period: a 1 ms timer at priority 20, the
# logger passive with every class traced) under -icount shift=0,sleep=off, so that the trace's
# clock is QEMU's virtual clock, one instruction a nanosecond, and the host's load cannot show
# through (under shift=auto it does: docs/x86.md). Checks the program's own measure of its
# 1000 intervals, and the capture (test/qemu/period_check.py): the tick's spacing against the
# kernel's 1 kHz, each timer expiry's wake-up and the wake-ups' spacing against the period the
# program programmed, both within TOL_US (10 % of the period), and that the logger saved
# buffers while the program ran.
#   test/qemu/test_period.sh BUILDDIR HOSTDIR     (BOARD in the environment)
# Prints TAP.
set -u
b=$1
h=$2
board=${BOARD:-mps2-an385}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
PERIOD_US=1000  # period.c's PERIOD_US: what the program programmed
PERIODS=1000    # period.c's PERIODS
TICK_US=1000    # the kernel's tick (TICK_HZ, kernel/include/kernel/kernel.h)
TOL_US=100
echo "1..9"
if grep -q '^BOARD_TRACE_STORAGE *:= *uart' "boards/$board/board.mk"; then
    BOARD=$board QEMU_ARGS="tracelogger -d1 -u" QEMU_UART1=$out/t.uart QEMU_TIMEOUT=150 \
        scripts/qemu-run.sh "$b/periodic.elf" -icount shift=0,sleep=off > "$out/run.log" 2>&1
    rc=$?
    "$h/kevcapture" -q -o "$out/t.kev" "$out/t.uart" >> "$out/run.log" 2>&1 || rc=1
else
    BOARD=$board QEMU_ARGS="tracelogger -d1 -f $out/t.kev" QEMU_TIMEOUT=150 \
        scripts/qemu-run.sh "$b/periodic.elf" -icount shift=0,sleep=off > "$out/run.log" 2>&1
    rc=$?
fi
grep -aE 'period:|tracelogger: ' "$out/run.log" | sed 's/^/# /'
line=$(grep -a 'period: [0-9]* periods of' "$out/run.log" | tail -1)
num() { printf '%s\n' "$line" | sed -n "s/.*$1 \([0-9]*\).*/\1/p"; }
longest=$(num longest) shortest=$(num shortest)
late=$(printf '%s\n' "$line" | sed -n 's/.*, \([0-9]*\) late.*/\1/p')
[ $rc = 0 ] && [ -n "$line" ] && grep -aq 'tracelogger: no events lost' "$out/run.log"
echo "$([ $? = 0 ] && echo ok || echo not ok) 1 - $board: the periodic image runs to its end, the logger loses no event"
[ -n "$longest" ] && [ "$longest" -le $((PERIOD_US + TOL_US)) ] && [ "${late:-1}" = 0 ]
echo "$([ $? = 0 ] && echo ok || echo not ok) 2 - $board: the program's longest interval is at most $((PERIOD_US + TOL_US)) us (${longest:-none} us, ${late:-?} late)"
[ -n "$shortest" ] && [ "$shortest" -ge $((PERIOD_US - TOL_US)) ]
echo "$([ $? = 0 ] && echo ok || echo not ok) 3 - $board: the program's shortest interval is at least $((PERIOD_US - TOL_US)) us (${shortest:-none} us)"
cps=$("$h/traceprinter" "$out/t.kev" 2>/dev/null | awk '/TRACE_CYCLES_PER_SEC::/ { print $2; exit }')
[ -n "$cps" ]
echo "$([ $? = 0 ] && echo ok || echo not ok) 4 - $board: the capture decodes"
"$h/traceprinter" -m -p '%c %k %a' "$out/t.kev" 2>/dev/null |
    python3 test/qemu/period_check.py --cps "${cps:-1}" --period-us $PERIOD_US --tick-us $TICK_US \
        --tol-us $TOL_US --periods $PERIODS --tap-base 4 --label "$board"
