#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# CPU time by priority on a real capture (TAP): the image priotest runs user/apps/prioself, one
# thread that changes its own priority while it runs (ThreadSetPrio twice, then pulses to
# itself at a higher and at a lower priority, received) and times each phase with its own
# clock (ClockCycles). The truth is the program's: kevstat -s cpu's "priority" rows, kevstat
# --json's "priorities" and the report's (the data of its "Per priority" table) must give each
# phase's priority the time the program measured there, within 20 us + 0.5 % (a kernel call's
# return and a clock read lie between a priority change and the program's first read). Its
# priorities are its alone, above the tracelogger's, so nothing else runs at them.
# mps2-an385 and qemu-virt-a53 (its other CPUs idle) under QEMU_ICOUNT=exact. One boot of about
# 2 s a board.
#   BOARD=<board> test/qemu/test_prio_split.sh BUILD_DIR HOST_DIR
set -u
b=$1
h=$2
board=${BOARD:-mps2-an385}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
out=$b/test-prio-split
rm -rf "$out" && mkdir -p "$out"
TAP_PREFIX="$board: "
. test/qemu/tap_lib.sh
BOARD=$board QEMU_ICOUNT=exact QEMU_ARGS="appinit prioself ;; tracelogger -d1 -f $out/t.kev" \
    QEMU_TIMEOUT=60 scripts/qemu-run.sh "$b/priotest.elf" >"$out/run.log" 2>&1
ok $? "priotest boots, runs prioself under the tracelogger and exits 0"
grep -a 'prioself: \|tracelogger: no' "$out/run.log" | sed 's/^/# /'
grep -aq 'prioself: cps [0-9]* done' "$out/run.log" && grep -aq 'tracelogger: no events lost' "$out/run.log"
ok $? "prioself ends well, the logger loses no event"
"$h/kevstat" -s cpu "$out/t.kev" >"$out/cpu.txt" 2>"$out/kevstat.err"
ok $? "kevstat -s cpu reads the capture"
"$h/kevstat" --json "$out/t.kev" >"$out/t.json" 2>>"$out/kevstat.err"
ok $? "kevstat --json reads the capture"
"$h/kevreport" -o "$out/t.html" "$out/t.kev" >/dev/null 2>"$out/kevreport.err"
ok $? "kevreport writes the page"
cps=$(sed -n 's/.*prioself: cps \([0-9]*\) done.*/\1/p' "$out/run.log" | head -1)
# near TRUTH_US GOT_US: |GOT - TRUTH| <= 20 us + 0.5 % of TRUTH
near() { awk -v t="$1" -v g="$2" 'BEGIN { d = g - t; if (d < 0) d = -d; exit !(g != "" && d <= 20 + t / 200) }'; }
# by_prio FILE PRIO CPS: the us FILE's "priorities" array (kevstat --json's, or the one the
# report's page carries) gives PRIO, empty when none
by_prio() {
    python3 -c 'import json, re, sys
a = json.loads(re.search(r"\"priorities\":(\[[^]]*\])", open(sys.argv[1]).read()).group(1))
print(next(("%.3f" % (x["cpu_cycles"] * 1e6 / float(sys.argv[3])) for x in a if x["prio"] == int(sys.argv[2])), ""))' "$@"
}
phases=$(sed -n 's/.*prioself: prio \([0-9]*\) cycles \([0-9]*\).*/\1 \2/p' "$out/run.log")
[ "$(echo "$phases" | grep -c .)" = 4 ] && [ -n "$cps" ]
ok $? "prioself printed its four phases and its clock rate"
while read -r p c; do
    [ -n "$p" ] || continue
    truth=$(awk -v c="$c" -v f="$cps" 'BEGIN { printf "%.3f", c * 1e6 / f }')
    text=$(awk -v p="$p" '/^  priority/ { on = 1; next } on && $1 == p { print $2; exit }' "$out/cpu.txt")
    json=$(by_prio "$out/t.json" "$p" "$cps")
    page=$(by_prio "$out/t.html" "$p" "$cps")
    near "$truth" "$text"
    ok $? "kevstat -s cpu: priority $p ran ${text:-nothing} us, the program measured $truth us"
    near "$truth" "$json"
    ok $? "kevstat --json: priority $p ran ${json:-nothing} us, the program measured $truth us"
    near "$truth" "$page"
    ok $? "kevreport's page: priority $p ran ${page:-nothing} us, the program measured $truth us"
done <<<"$phases"
echo "1..$n"
