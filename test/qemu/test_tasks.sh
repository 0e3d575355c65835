#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Task instances on a real capture (TAP): the image tasktest runs user/apps/cadence (a periodic
# task that overruns its period a known number of times) and user/apps/relay (a send to a server
# that waits on a mutex another thread holds) under the tracelogger, one boot serving every
# check. The programs measure on their own clock (ClockCycles, no trace involved) each job's
# release and end, each wait; held against them (test/qemu/tasks_check.py): kevstat's task
# instances (--json and its text), kevsql's instance table and deadline_miss view: as many
# misses as the program counted (its overruns), the period it programmed, every job's response
# time within 1 us of its own, a deadline given as kevstat and kevsql take it; relay's wait
# chains (test/qemu/relay_check.py): each client wait as long as the program measured it,
# through its server to the mutex's holder, attributed to the holder for as long as the server
# waited, in kevsql's blocked_by and kevstat's chains; and the report read in Chromium
# (test/qemu/tasks_report_check.py), its Tasks section and relay's chain in its findings, with
# screenshots left in the scratch directory.
# mps2-an385 runs under -icount shift=0,sleep=off with the kernel's idle=poll (one instruction a
# nanosecond, repeatable: QEMU_ICOUNT=exact's shift=4 makes one instruction 16 ns, and the
# instrumented path from the program's clock read to the event 5 us); qemu-virt-a53 under
# QEMU_ICOUNT=exact with its 4 CPUs (the programs pin their threads to CPU 0).
#   BOARD=<board> test/qemu/test_tasks.sh BUILD_DIR HOST_DIR
set -u
b=$1
h=$2
board=${BOARD:-mps2-an385}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
out=$b/test-tasks
rm -rf "$out" && mkdir -p "$out"
TAP_PREFIX="$board: "
. test/qemu/tap_lib.sh
if [ "$board" = mps2-an385 ]; then
    BOARD=$board QEMU_ARGS="kernel idle=poll ;; appinit cadence relay ;; tracelogger -d1 -f $out/t.kev" \
        QEMU_TIMEOUT=150 scripts/qemu-run.sh "$b/tasktest.elf" -icount shift=0,sleep=off >"$out/run.log" 2>&1
else
    BOARD=$board QEMU_ICOUNT=exact QEMU_ARGS="appinit cadence relay ;; tracelogger -d1 -f $out/t.kev" \
        QEMU_TIMEOUT=150 scripts/qemu-run.sh "$b/tasktest.elf" >"$out/run.log" 2>&1
fi
ok $? "tasktest boots, runs cadence and relay under the tracelogger and exits 0"
grep -a 'cadence: [a-z]\|relay: [a-z]\|tracelogger: no' "$out/run.log" | grep -v ': job \|: round ' | sed 's/^/# /'
grep -aq 'cadence: done, ok' "$out/run.log" && grep -aq 'relay: done, ok' "$out/run.log" &&
    grep -aq 'tracelogger: no events lost' "$out/run.log"
ok $? "both programs end well, the logger loses no event"
"$h/kevstat" --json "$out/t.kev" >"$out/t.json" 2>"$out/kevstat.err"
ok $? "kevstat --json reads the capture"
"$h/kevstat" -s tasks "$out/t.kev" >"$out/tasks.txt" 2>&1
grep -v '^    ' "$out/tasks.txt" | sed 's/^/# /'
"$h/kevstat" -s chains "$out/t.kev" >"$out/chains.txt" 2>&1
sed 's/^/# /' "$out/chains.txt"
"$h/kevreport" -o "$out/t.html" "$out/t.kev" >/dev/null 2>"$out/kevreport.err"
ok $? "kevreport writes the page"
tap_from() { # the checker's "ok - " / "not ok - " lines as this script's, the rest as comments
    while IFS= read -r line; do
        case $line in
            "ok - "*) ok 0 "$1${line#ok - }" ;;
            "not ok - "*) ok 1 "$1${line#not ok - }" ;;
            *) echo "# $line" ;;
        esac
    done
}
python3 test/qemu/tasks_check.py "$out/t.json" "$out/tasks.txt" "$out/run.log" "$h/kevsql" "$out/t.kev" \
    "$h/kevstat" >"$out/checks" 2>&1
ok $? "the checks ran to their end"
tap_from "" <"$out/checks"
python3 test/qemu/relay_check.py "$out/t.json" "$out/chains.txt" "$out/run.log" "$h/kevsql" "$out/t.kev" \
    >"$out/relay" 2>&1
ok $? "relay's checks ran to their end"
tap_from "relay: " <"$out/relay"
timeout 120 /usr/bin/python3 test/qemu/tasks_report_check.py "$(realpath "$out/t.html")" "$out/run.log" \
    "$out/report.png" >"$out/ui" 2>&1
rc=$?
tap_from "report: " <"$out/ui"
[ "$rc" = 0 ]; ok $? "the browser check ran to its end (exit $rc)"
echo "1..$n"
