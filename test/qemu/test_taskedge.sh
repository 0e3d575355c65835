#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Task instances where the system misbehaves, on a real capture (TAP): the image edgetest runs
# user/apps/taskedge under the tracelogger, one boot serving every check. The program measures on
# its own clock (ClockCycles, no trace involved) and counts by its own logic: a periodic thread
# that loses timer pulses on purpose (the kernel's console says each), a periodic thread that
# exits after its last job, a server released by a client's messages. Held against them
# (test/qemu/taskedge_check.py): kevstat's task instances (--json and its text), kevsql's
# instance and task tables and task_timing and deadline_miss views; and the report read in
# Chromium (test/qemu/taskedge_report_check.py), with and without a deadline given the server.
# mps2-an385 runs under -icount shift=0,sleep=off with the kernel's idle=poll (one instruction a
# nanosecond, repeatable); qemu-virt-a53 under QEMU_ICOUNT=exact with its 4 CPUs (the program
# pins its threads to CPU 0).
#   BOARD=<board> test/qemu/test_taskedge.sh BUILD_DIR HOST_DIR
set -u
b=$1
h=$2
board=${BOARD:-mps2-an385}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
out=$b/test-taskedge
rm -rf "$out" && mkdir -p "$out"
TAP_PREFIX="$board: "
. test/qemu/tap_lib.sh
if [ "$board" = mps2-an385 ]; then
    BOARD=$board QEMU_ARGS="kernel idle=poll ;; appinit taskedge ;; tracelogger -d1 -f $out/t.kev" \
        QEMU_TIMEOUT=150 scripts/qemu-run.sh "$b/edgetest.elf" -icount shift=0,sleep=off >"$out/run.log" 2>&1
else
    BOARD=$board QEMU_ICOUNT=exact QEMU_ARGS="appinit taskedge ;; tracelogger -d1 -f $out/t.kev" \
        QEMU_TIMEOUT=150 scripts/qemu-run.sh "$b/edgetest.elf" >"$out/run.log" 2>&1
fi
ok $? "edgetest boots, runs taskedge under the tracelogger and exits 0"
grep -a 'taskedge: [a-z]\|tracelogger: no\|pulse to pid' "$out/run.log" | grep -v ': [a-z]* job \|: server req ' | sed 's/^/# /'
grep -aq 'taskedge: done, ok' "$out/run.log" && grep -aq 'tracelogger: no events lost' "$out/run.log"
ok $? "the program ends well, the logger loses no event"
"$h/kevstat" --json "$out/t.kev" >"$out/t.json" 2>"$out/kevstat.err"
ok $? "kevstat --json reads the capture"
"$h/kevstat" -s tasks "$out/t.kev" >"$out/tasks.txt" 2>&1
grep '^  [a-z]' "$out/tasks.txt" | sed 's/^/# /'
"$h/kevreport" -o "$out/t.html" "$out/t.kev" >/dev/null 2>"$out/kevreport.err" &&
    "$h/kevreport" --deadline taskedge/server=600us -o "$out/t-deadline.html" "$out/t.kev" >/dev/null 2>>"$out/kevreport.err"
ok $? "kevreport writes the pages, without and with the server's deadline"
tap_from() { # the checker's "ok - " / "not ok - " lines as this script's, the rest as comments
    while IFS= read -r line; do
        case $line in
            "ok - "*) ok 0 "$1${line#ok - }" ;;
            "not ok - "*) ok 1 "$1${line#not ok - }" ;;
            *) echo "# $line" ;;
        esac
    done
}
python3 test/qemu/taskedge_check.py "$out/t.json" "$out/tasks.txt" "$out/run.log" "$h/kevsql" "$out/t.kev" \
    "$h/kevstat" >"$out/checks" 2>&1
ok $? "the checks ran to their end"
tap_from "" <"$out/checks"
timeout 120 /usr/bin/python3 test/qemu/taskedge_report_check.py "$(realpath "$out/t.html")" \
    "$(realpath "$out/t-deadline.html")" "$out/run.log" "$out/report.png" >"$out/ui" 2>&1
rc=$?
tap_from "report: " <"$out/ui"
[ "$rc" = 0 ]; ok $? "the browser check ran to its end (exit $rc)"
echo "1..$n"
