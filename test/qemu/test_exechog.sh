#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What a CPU executed of a thread when the emulator runs the CPUs in turn (QEMU's exact mode,
# -icount, every CPU): user/apps/exechog's hog, bound to the last CPU beside bursty workers on
# the others, counts its own execution by its clock reads (steps of at most 16 counts its own,
# longer ones other CPUs' turns). The truth is that count. kevstat's "executed us", its JSON's
# exec_cycles (the model every tool reads: tools/analysis) and kevsql's sched_slice.exec_dur
# give the hog within 2 % of it, while its RUNNING time (every CPU's instructions) is well
# above (else the test shows nothing).
#   BOARD=<board> test/qemu/test_exechog.sh BUILD_DIR HOST_DIR
set -u
b=$1
h=$2
here=$(cd "$(dirname "$0")" && pwd)
out=$b/test-exechog
rm -rf "$out" && mkdir -p "$out"
. "$here/tap_lib.sh"
QEMU_ARGS="appinit exechog ;; tracelogger -d1 -f $out/t.kev" QEMU_TIMEOUT=150 \
    "$here/../../scripts/qemu-run.sh" "$b/exechogtest.elf" -icount shift=0,sleep=off >"$out/run.log" 2>&1
rc=$?
own=$(sed -n 's/.*exechog: hog executed \([0-9]*\) of \([0-9]*\) counts.*/\1/p' "$out/run.log")
check "exechog runs to its end under a capture on every CPU, no event lost (its own count: ${own:-none})" \
    "[ $rc = 0 ] && [ -n '$own' ] && grep -q 'tracelogger: no events lost' $out/run.log"
"$h/kevstat" --json "$out/t.kev" >"$out/stat.json" 2>/dev/null
read -r run exe <<<"$(python3 -c "
import json, sys
t = [t for t in json.load(open(sys.argv[1]))['threads'] if t['name'] == 'exechog/main'][0]
print(t['cpu_cycles'], t.get('exec_cycles', 0))" "$out/stat.json")"
within() { python3 -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); sys.exit(abs(a - b) > 0.02 * b)" "$1" "$2"; }
check "its RUNNING time, $run cycles, is other CPUs' turns too: more than 2 % over its own $own" \
    "! within '${run:-0}' '${own:-1}'"
check "kevstat --json (the model): exec_cycles $exe within 2 % of its own $own" "within '${exe:-0}' '${own:-1}'"
"$h/kevstat" "$out/t.kev" >"$out/stat.txt" 2>/dev/null
cps=$("$h/traceprinter" "$out/t.kev" 2>/dev/null | awk '/TRACE_CYCLES_PER_SEC::/ { print $2; exit }')
txt=$(awk '$1 == "exechog/main" { print $NF; exit }' "$out/stat.txt")
check "kevstat: executed $txt us within 2 % of its own $own counts" \
    "within \"\$(python3 -c 'import sys; print(float(sys.argv[1]) * float(sys.argv[2]) / 1e6)' '${txt:-0}' '${cps:-1}')\" '${own:-1}'"
sql=$("$h/kevsql" --csv "$out/t.kev" "SELECT sum(s.exec_dur) FROM sched_slice s JOIN thread t USING (utid)
      WHERE t.label = 'exechog/main'" 2>&1 | tail -1)
check "kevsql: sched_slice.exec_dur $sql ns within 2 % of its own $own counts" \
    "within \"\$(python3 -c 'import sys; print(float(sys.argv[1]) * float(sys.argv[2]) / 1e9)' '${sql:-0}' '${cps:-1}')\" '${own:-1}'"
echo "1..$n"
