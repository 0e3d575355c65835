#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The real application, acq (docs/applications.md, "A real application: acq"), on one board:
# boots the acqtest image (appinit, acq, the tracelogger) under -icount shift=0,sleep=off
# (test/qemu/capture_boot.sh: the device's periods come exactly) and checks
#   - what acq prints: it ends well, its filter saw every sample;
#   - the capture's interrupt entries on the device line between acq's START and STOP user
#     events against the rate the board's device runs at (written here: 1 kHz, x86-pc's RTC
#     1024 Hz), and acq's own sample count against the capture's (test/qemu/irq_rate_check.py);
#   - the priority inversion in the scheduler's events: intervals where the supervisor waits on
#     the semaphore while the hog runs and the logger, its holder, is preempted
#     (test/qemu/acq_inversion_check.py), as many as acq measured;
#   - kevstat over the capture (test/qemu/acq_kevstat_check.py): its list of waits against acq's
#     own measure of the supervisor's waits, each CPU's running/idle time and each thread's CPU
#     time against the independent reader of the file's bytes (test/tools/kev_reader.py);
#   - kevsql over it: its inversion and waits against acq's measure, and its tables against the
#     independent reader and kevstat (test/tools/check_sql.py).
#   - with several CPUs, where acq's threads ran (docs/interrupts.md "Devices and CPUs"): its main
#     thread, which programs and acknowledges the device timer (one CPU's own), on that CPU
#     (0) alone once it first ran there (it starts anywhere and moves there when it first
#     touches the timer), and its other threads on the other CPUs too (a program's threads may run
#     anywhere unless it pins them, a device's owner too); the rate above is kept.
#   test/qemu/test_acq.sh BOARD HOSTDIR
# Prints TAP.
set -u
board=$1
h=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
. test/qemu/capture_boot.sh
img=build/$board/acqtest.elf
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
rate=$(devtimer_rate_1khz "$board")
echo "1..32"
capture_boot "$board" "$img" acq "$out" "$h"
rc=$?
grep 'acq:\|appinit:\|tracelogger:' "$out/run.log" | sed 's/^/# /'
TAP_PREFIX="$board: "
. test/qemu/tap_lib.sh
[ $rc = 0 ]; ok $? "acqtest halts with status 0"
grep -q 'acq: done, ok' "$out/run.log"; ok $? "acq ends well (every thread, every sample through the filter)"
line=$(sed -n 's/.*acq: \([0-9]*\) samples in \([0-9]*\) ms, device programmed at \([0-9]*\) Hz.*/\1 \2 \3/p' "$out/run.log")
set -- $line
samples=${1:-0}
[ "${3:-0}" = "$rate" ]; ok $? "acq programmed its device at ${3:-?} Hz (the board's device: $rate Hz)"
grep -q 'tracelogger: no events lost' "$out/run.log"; ok $? "the capture lost no event"
cps=$("$h/traceprinter" "$out/t.kev" 2>/dev/null | awk '/TRACE_CYCLES_PER_SEC::/ { print $2; exit }')
"$h/traceprinter" -m -p '%c %k %a' "$out/t.kev" > "$out/t.txt" 2>/dev/null
python3 test/qemu/irq_rate_check.py --start 210 --stop 211 --cps "${cps:-1}" --rate "$rate" \
    --count "$samples" --tap-base $n --label "$board" < "$out/t.txt"
n=$((n + 6))
read -r intervals inversions longest < <(python3 test/qemu/acq_inversion_check.py --cps "${cps:-1}" < "$out/t.txt")
waits=$(sed -n 's/.*acq: inversion: .* waited \([0-9]*\) times.*/\1/p' "$out/run.log")
[ "${inversions:-0}" -ge 1 ]
ok $? "the trace shows the inversion: the supervisor blocked on the semaphore while the hog ran and the logger waited (${inversions:-0} of ${intervals:-0} waits, longest ${longest:-0} us)"
[ -n "$waits" ] && [ "${inversions:-0}" = "$waits" ]
ok $? "as many inversions in the trace as acq measured (${inversions:-0}, acq: ${waits:-none})"
while read -r st text; do
    ok "$st" "$text"
done < <(python3 test/qemu/acq_kevstat_check.py "$h/kevstat" "$out/t.kev" "$out/run.log" "$h/kevsql")
# kevsql's tables on the capture: the independent reader's counts and times, kevstat's sums
python3 test/tools/check_sql.py "$h/kevsql" "$h/kevstat" "$out/t.kev" > "$out/sql.tap" 2>&1
relay "$out/sql.tap" "kevsql: "
# Where acq's threads ran (THRUNNING events), by CPU: main on CPU 0 only, the others anywhere.
read -r ncpu main_cpus other_cpus other_off0 < <("$h/traceprinter" "$out/t.kev" 2>/dev/null | awk '
    /TRACE_CPU_NUM::/ { ncpu = $2 }
    /PROCCREATE_NAME/ && / name:acq$/ { for (i = 1; i <= NF; i++) if ($i ~ /^pid:/) { acq = substr($i, 5) } }
    /THRUNNING/ && acq != "" && $0 ~ (" pid:" acq " ") {
        cpu = $2; sub(/CPU:/, "", cpu); cpu += 0
        tid = $0; sub(/.* tid:/, "", tid); sub(/ .*/, "", tid)
        if (tid == 1 && (cpu == 0 || on0)) { m[cpu] = 1; on0 = 1 }     # (before its first
        else if (tid != 1) { o[cpu] = 1; if (cpu != 0) off++ }          # touch: anywhere)
    }
    END { ms = ""; for (c in m) ms = ms c ","; os = ""; for (c in o) os = os c ","
          printf "%d %s %s %d\n", ncpu, ms == "" ? "-" : ms, os == "" ? "-" : os, off }')
if [ "${ncpu:-1}" -gt 1 ]; then
    [ "$main_cpus" = "0," ]
    ok $? "acq's main thread, the device timer's user, ran on CPU 0 only once it had run there (CPUs $main_cpus)"
    [ "${other_off0:-0}" -gt 0 ]
    ok $? "acq's other threads ran on other CPUs than 0 too (CPUs $other_cpus; ${other_off0:-0} times off CPU 0)"
else
    n=$((n + 1)); echo "ok $n - ${TAP_PREFIX}acq's main thread on the device's CPU # SKIP one CPU"
    n=$((n + 1)); echo "ok $n - ${TAP_PREFIX}acq's other threads on other CPUs # SKIP one CPU"
fi
