#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# An application keeps its period while the tracelogger writes the trace out
# (docs/x86.md). Boots the periodic image (user/apps/period: a 1 ms timer at priority 20, the
# logger passive with every class traced) under -icount shift=0,sleep=off, so that the trace's
# clock is QEMU's virtual clock, one instruction a nanosecond, and the host's load cannot show
# through (under shift=auto it does: docs/x86.md). Checks the program's own measure of its
# 1000 intervals, and the capture (test/qemu/period_check.py): the tick's spacing against the
# kernel's 1 kHz, each timer expiry's wake-up and the wake-ups' spacing against the period the
# program programmed, both within TOL_US (10 % of the period), and that the logger saved
# buffers while the program ran. On x86-pc QEMU's own trace of the 8259 (pic_set_irq,
# pic_interrupt) says whether every rising edge of the PIT's line reached the CPU once: none
# lost to a long stretch with interrupts off, none delivered twice. kevsql's period_jitter and
# deadline_miss views over the capture against the program's own measure: as many periods, the
# shortest, mean and longest within 2 us (the program prints whole us), as many late ones.
#   test/qemu/test_period.sh BUILDDIR HOSTDIR     (BOARD in the environment)
# Prints TAP.
set -u
b=$1
h=$2
board=${BOARD:-mps2-an385}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
out=$(mktemp -d)
trap '[ -n "${KEEP_OUT:-}" ] || rm -rf "$out"' EXIT
PERIOD_US=1000  # period.c's PERIOD_US: what the program programmed
PERIODS=1000    # period.c's PERIODS
TICK_US=1000    # the kernel's tick (TICK_HZ, kernel/include/kernel/kernel.h)
TOL_US=100
echo "1..12"
QTRACE=()
[ "$board" = x86-pc ] && QTRACE=(-trace pic_set_irq -trace pic_interrupt -D "$out/qemu.trace")
if grep -q '^BOARD_TRACE_STORAGE *:= *uart' "boards/$board/board.mk"; then
    BOARD=$board QEMU_ARGS="tracelogger -d1 -u" QEMU_UART1=$out/t.uart QEMU_TIMEOUT=150 \
        scripts/qemu-run.sh "$b/periodic.elf" -icount shift=0,sleep=off "${QTRACE[@]}" \
        > "$out/run.log" 2>&1
    rc=$?
    "$h/kevcapture" -q -o "$out/t.kev" "$out/t.uart" >> "$out/run.log" 2>&1 || rc=1
else
    BOARD=$board QEMU_ARGS="tracelogger -d1 -f $out/t.kev" QEMU_TIMEOUT=150 \
        scripts/qemu-run.sh "$b/periodic.elf" -icount shift=0,sleep=off "${QTRACE[@]}" \
        > "$out/run.log" 2>&1
    rc=$?
fi
grep -aE 'period:|tracelogger: ' "$out/run.log" | sed 's/^/# /'
line=$(grep -a 'period: [0-9]* periods of' "$out/run.log" | tail -1)
num() { printf '%s\n' "$line" | sed -n "s/.*$1 \([0-9]*\).*/\1/p"; }
longest=$(num longest) shortest=$(num shortest) mean=$(num mean)
late=$(printf '%s\n' "$line" | sed -n 's/.*, \([0-9]*\) late.*/\1/p')
[ $rc = 0 ] && [ -n "$line" ] && grep -aq 'tracelogger: no events lost' "$out/run.log"
echo "$([ $? = 0 ] && echo ok || echo not ok) 1 - $board: the periodic image runs to its end, the logger loses no event"
[ -n "$longest" ] && [ "$longest" -le $((PERIOD_US + TOL_US)) ] && [ "${late:-1}" = 0 ]
echo "$([ $? = 0 ] && echo ok || echo not ok) 2 - $board: the program's longest interval is at most $((PERIOD_US + TOL_US)) us (${longest:-none} us, ${late:-?} late)"
[ -n "$shortest" ] && [ "$shortest" -ge $((PERIOD_US - TOL_US)) ]
echo "$([ $? = 0 ] && echo ok || echo not ok) 3 - $board: the program's shortest interval is at least $((PERIOD_US - TOL_US)) us (${shortest:-none} us)"
# The tick's line on x86-pc is the master 8259's line 0 (vector 32). Before the kernel unmasks it
# the BIOS's PIT raises it unheard, and after the halt once more: only the edges between the
# first interrupt taken and the last count. lost: an edge while the previous one was still
# pending (the 8259 merges them); twice: an interrupt taken with no new edge behind it.
if [ -n "${QTRACE[*]}" ]; then
    pit=$(awk '/pic_set_irq master 1 irq 0 level 1/ { if (!hi) { e++; if (pend && d) cand++; pend = 1 } hi = 1 }
               /pic_set_irq master 1 irq 0 level 0/ { hi = 0 }
               /pic_interrupt irq 0 intno 32/ { d++; if (!pend) twice++; pend = 0; lost = cand }
               END { printf "%d %d %d %d", e, d, lost, twice }' "$out/qemu.trace" 2>/dev/null)
    set -- $pit
    [ "${2:-0}" -ge $PERIODS ] && [ "${3:-1}" = 0 ] && [ "${4:-1}" = 0 ]
    echo "$([ $? = 0 ] && echo ok || echo not ok) 4 - $board: QEMU's 8259 delivered every PIT edge once (${1:-?} edges, ${2:-?} taken, ${3:-?} lost, ${4:-?} twice)"
else
    echo "ok 4 - $board: the timer's line # SKIP no QEMU trace of this board's interrupt controller here"
fi
cps=$("$h/traceprinter" "$out/t.kev" 2>/dev/null | awk '/TRACE_CYCLES_PER_SEC::/ { print $2; exit }')
[ -n "$cps" ]
echo "$([ $? = 0 ] && echo ok || echo not ok) 5 - $board: the capture decodes"
"$h/traceprinter" -m -p '%c %k %a' "$out/t.kev" 2>/dev/null |
    python3 test/qemu/period_check.py --cps "${cps:-1}" --period-us $PERIOD_US --tick-us $TICK_US \
        --tol-us $TOL_US --periods $PERIODS --tap-base 5 --label "$board"
read -r np mn av mx < <("$h/kevsql" --csv --no-header "$out/t.kev" \
    "SELECT periods, min_ns, avg_ns, max_ns FROM period_jitter WHERE label = 'period/main'" | tr ',' ' ')
awk -v n="${np:-0}" -v a="${mn:-0}" -v m="${av:-0}" -v b="${mx:-0}" -v P=$PERIODS \
    -v s="${shortest:-0}" -v e="${mean:-0}" -v l="${longest:-0}" 'BEGIN {

    ok = n == P && (a / 1000 - s) ^ 2 <= 4 && (m / 1000 - e) ^ 2 <= 4 && (b / 1000 - l) ^ 2 <= 4
    exit !ok }'
echo "$([ $? = 0 ] && echo ok || echo not ok) 11 - $board: kevsql's period_jitter: ${np:-?} periods of period/main, shortest $(( ${mn:-0} / 1000 )) us, mean $(( ${av%.*} / 1000 )) us, longest $(( ${mx:-0} / 1000 )) us (the program: $PERIODS, ${shortest:-?}, ${mean:-?}, ${longest:-?} us)"
misses=$("$h/kevsql" --csv --no-header "$out/t.kev" "SELECT count(*) FROM deadline_miss WHERE label = 'period/main'")
[ -n "$misses" ] && [ "$misses" = "${late:-x}" ]
echo "$([ $? = 0 ] && echo ok || echo not ok) 12 - $board: kevsql's deadline_miss: ${misses:-?} for period/main (the program counted ${late:-?} late)"
