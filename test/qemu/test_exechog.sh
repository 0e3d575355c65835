#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What a CPU executed of a thread when the emulator runs the CPUs in turn (QEMU's exact mode,
# -icount, every CPU): user/apps/exechog's hog, bound to the last CPU beside bursty workers on
# the others, counts its own execution by its clock reads (steps of at most 16 counts its own,
# longer ones other CPUs' turns). The truth is that count. kevstat's "executed us", its JSON's
# exec_cycles (the model every tool reads: tools/analysis) and kevsql's sched_slice.exec_dur
# give the hog within 2 % of it, while its RUNNING time (every CPU's instructions) is well
# above (else the test shows nothing); so do kevtop's frames, the CTF's sched_switch context as
# babeltrace2 reads it, and the pages a user reads (kevweb's and the report's, in Chromium).
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
# The same figure where the other readers show it: kevtop's frames (--json, summed), the CTF's
# sched_switch context (babeltrace2: each of the hog's runs' prev_exec_cycles, summed), and the
# pages a user reads in Chromium: kevweb's over the finished file and kevreport's.
top=$("$h/kevtop" --json -d 0.05 "$out/t.kev" 2>"$out/top.err" | python3 -c "
import json, sys
print(sum(t.get('exec_cycles', 0) for l in sys.stdin for t in json.loads(l)['threads'] if t['name'] == 'exechog/main'))")
check "kevtop: its frames' executed cycles add up to $top, within 2 % of its own $own" "within '${top:-0}' '${own:-1}'"
"$h/kev2ctf" -o "$out/ctf" "$out/t.kev" 2>"$out/ctf.err"
tid=$(python3 -c "
import json, sys
t = [t for t in json.load(open(sys.argv[1]))['threads'] if t['name'] == 'exechog/main'][0]
print(t['pid'] * 1000 + t['tid'])" "$out/stat.json")
ctf=$(babeltrace2 "$out/ctf" 2>/dev/null | sed -n "s/.* sched_switch: .*{ prev_exec_cycles = \([0-9]*\) }, { prev_comm = \"[^\"]*\", prev_tid = $tid, .*/\1/p" |
      awk '{ s += $1 } END { print s + 0 }')
check "CTF: babeltrace2 reads sched_switch's prev_exec_cycles; the hog's (tid $tid) add up to $ctf, within 2 % of its own $own" \
    "within '${ctf:-0}' '${own:-1}'"
"$h/kevreport" -o "$out/report.html" "$out/t.kev" >/dev/null 2>&1
rep=$(timeout 120 /usr/bin/python3 "$here/../tools/page_exec.py" report "$out/report.html" exechog/main 2>"$out/page.err")
check "the report's page (Chromium): executed $rep cycles, within 2 % of its own $own" "within '${rep:-0}' '${own:-1}'"
"$h/kevweb" -p 0 "$out/t.kev" 2>"$out/web.err" &
web=$!
port=
for _ in $(seq 100); do
    port=$(sed -n 's|^kevweb: the live view is at http://localhost:\([0-9]*\)/$|\1|p' "$out/web.err")
    [ -n "$port" ] && break
    sleep 0.05
done
kw=$(timeout 150 /usr/bin/python3 "$here/../tools/page_exec.py" kevweb "http://localhost:${port:-0}/" exechog/main 2>>"$out/page.err")
kill -INT "$web"
wait "$web"
check "kevweb's page (Chromium) over the finished file: executed $kw cycles, within 2 % of its own $own" \
    "within '${kw:-0}' '${own:-1}'"
echo "1..$n"
