#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Task classes from the design and loss-aware words on real captures (TAP). The image taskclass
# runs user/apps/deadline (a loop its timer releases every 2 ms, with programmed overruns it
# counts on its own clock) beside user/apps/irqrate (a driver its device's interrupts release,
# 1 kHz) under the tracelogger. Two boots:
#   * "deadline 100 50": every other period overruns, the last one too, then the loop exits.
#     Every reader (kevstat, kevsql, the report and kevweb in Chromium: task_class_check.py)
#     says the loop's misses, the program's count (its last job, which exited, judged), and
#     none for the driver nor the logger: event-driven, no deadline, named so in the headline;
#   * "deadline 600 6" under a ring of 2 buffers the logger empties slowly (-x delay=200): the
#     capture loses events. No tick warning blames the target for a window of lost events
#     (kevstat says those gaps were not recorded), and the misses read "at least", no more than
#     the program's.
# mps2-an385 in QEMU's exact mode (QEMU_ICOUNT=exact): the same run every time, and deadline misses
# its programmed periods alone (test_probe_live.sh holds it so).
#   BOARD=<board> test/qemu/test_task_class.sh BUILD_DIR HOST_DIR
set -u
b=$1
h=$2
board=${BOARD:-mps2-an385}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
out=$b/test-task-class
rm -rf "$out" && mkdir -p "$out"
TAP_PREFIX="$board: "
. test/qemu/tap_lib.sh
boot() { # NAME DEADLINE_ARGS LOGGER_OPTS
    BOARD=$board QEMU_ICOUNT=exact QEMU_ARGS="appinit deadline irqrate ;; deadline $2 ;; tracelogger -d1 $3 -f $out/$1.kev" \
        QEMU_TIMEOUT=120 scripts/qemu-run.sh "$b/taskclass.elf" >"$out/$1.log" 2>&1
}
boot whole "100 50" ""
ok $? "taskclass boots, runs deadline (100 periods, 50 overruns) and irqrate under the tracelogger, exits 0"
m=$(sed -n 's/.*deadline: [0-9]* periods, missed \([0-9]*\):.*/\1/p' "$out/whole.log")
grep -a 'deadline: \|irqrate: \|tracelogger: no' "$out/whole.log" | sed 's/^/# /'
grep -aq 'tracelogger: no events lost' "$out/whole.log" && [ "${m:-0}" = 50 ]
ok $? "the loop missed ${m:-?} periods by its own clock, its last among them; the logger lost no event"
"$h/kevstat" -s tasks "$out/whole.kev" 2>&1 | grep -v '^    [ 0-9]' | sed 's/^/# /'
python3 test/qemu/task_class_check.py "$h" "$out/whole.kev" "$out" --periodic "deadline/main=${m:-0}" \
    --period deadline/main=2000 --event irqrate/main --event tracelogger/main >"$out/whole.checks" 2>&1
ok $? "the checks ran to their end"
relay "$out/whole.checks"

boot lossy "600 6" "-k 2 -x delay=200"
ok $? "taskclass boots again with a ring of 2 buffers emptied slowly"
m=$(sed -n 's/.*deadline: [0-9]* periods, missed \([0-9]*\):.*/\1/p' "$out/lossy.log")
grep -a 'deadline: \|tracelogger: [0-9]* events lost' "$out/lossy.log" | sed 's/^/# /'
grep -aq 'tracelogger: [1-9][0-9]* events lost' "$out/lossy.log"
ok $? "the capture lost events (the logger says how many)"
"$h/kevstat" "$out/lossy.kev" >"$out/lossy.txt" 2>&1
grep '^WARNING\|^time' "$out/lossy.txt" | sed 's/^/# /'
! grep -q 'held its interrupts up' "$out/lossy.txt"
ok $? "kevstat blames the target for no tick gap"
grep -q '^WARNING: [1-9][0-9]* gaps between the tick.s entries .* lie in windows where the capture lost events' "$out/lossy.txt"
ok $? "kevstat says the tick's gaps in the windows of lost events were not recorded"
python3 test/qemu/task_class_check.py "$h" "$out/lossy.kev" "$out" --at-least --periodic "deadline/main=${m:-0}" \
    --event irqrate/main >"$out/lossy.checks" 2>&1
ok $? "the lossy capture's checks ran to their end"
relay "$out/lossy.checks" "lossy: "
echo "1..$n"
