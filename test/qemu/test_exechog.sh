#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# CPU time on several CPUs when the emulator runs them in turn (QEMU's exact mode, -icount,
# every CPU): user/apps/exechog's hog, bound to the last CPU beside bursty workers on the others,
# prints the span of its loop on its own clock (start and end, counts since boot) and, from its
# clock reads' small steps, how much of that it executed itself (the rest: other CPUs' turns).
# The trace cannot tell which turns were whose, so no reader shows an estimate of what a CPU
# executed (tools/analysis kx_exec_in_turns: none): not kevstat (text or JSON), kevtop's frames,
# the report's page, kevweb's page (both in Chromium). Every reader's CPU time is the RUNNING
# time, and it is the hog's own clock: its RUNNING time inside its loop's span (kevsql's
# sched_slice) within 2 % of that span; kevstat's total, kevsql's and the CTF's sched_switch
# runs (babeltrace2) agree within 2 %.
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
read -r s0 s1 <<<"$(sed -n "s/.*exechog: hog's loop ran from \([0-9]*\) to \([0-9]*\) .*/\1 \2/p" "$out/run.log")"
check "exechog runs to its end under a capture on every CPU, no event lost (its loop: ${s0:-?} to ${s1:-?})" \
    "[ $rc = 0 ] && [ -n '${s1:-}' ] && grep -q 'tracelogger: no events lost' $out/run.log"
within() { python3 -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); sys.exit(abs(a - b) > 0.02 * b)" "$1" "$2"; }
span=$(( ${s1:-0} - ${s0:-0} ))
check "the hog's own execution, $own counts, is well under its loop's span $span (other CPUs' turns: else the test shows nothing)" \
    "! within '${own:-0}' '$span'"
"$h/kevstat" --json "$out/t.kev" >"$out/stat.json" 2>/dev/null
read -r run nexec <<<"$(python3 -c "
import json, sys
th = json.load(open(sys.argv[1]))['threads']
t = [t for t in th if t['name'] == 'exechog/main'][0]
print(t['cpu_cycles'], sum('exec_cycles' in x for x in th))" "$out/stat.json")"
check "kevstat --json: no thread has an executed estimate (exec_cycles: $nexec)" "[ '${nexec:-1}' = 0 ]"
"$h/kevstat" -s cpu "$out/t.kev" >"$out/stat.txt" 2>/dev/null
check "kevstat: no \"executed\" column" "! grep -q 'executed' $out/stat.txt"
# the hog's RUNNING time inside its loop's span, and in all, as kevsql's sched_slice has it
cps=$("$h/traceprinter" "$out/t.kev" 2>/dev/null | awk '/TRACE_CYCLES_PER_SEC::/ { print $2; exit }')
read -r inside total <<<"$("$h/kevsql" --csv --no-header "$out/t.kev" "SELECT
      sum(max(0, min(s.ts + s.dur, ${s1:-0} * 1e9 / ${cps:-1}) - max(s.ts, ${s0:-0} * 1e9 / ${cps:-1}))),
      sum(s.dur) FROM sched_slice s JOIN thread t USING (utid) WHERE t.label = 'exechog/main'" 2>&1 | tail -1 | tr ',' ' ')"
inside_c=$(python3 -c "import sys; print(float(sys.argv[1]) * float(sys.argv[2]) / 1e9)" "${inside:-0}" "${cps:-1}")
total_c=$(python3 -c "import sys; print(float(sys.argv[1]) * float(sys.argv[2]) / 1e9)" "${total:-0}" "${cps:-1}")
check "kevsql: the hog's RUNNING time inside its loop, $inside_c counts, within 2 % of its own clock's span $span" \
    "within '$inside_c' '$span'"
check "kevsql's RUNNING time in all ($total_c counts) is kevstat's ($run cycles) within 2 %" "within '$total_c' '${run:-1}'"
top=$("$h/kevtop" --json -d 0.05 "$out/t.kev" 2>"$out/top.err" | python3 -c "
import json, sys
print(sum('exec_cycles' in t for l in sys.stdin for t in json.loads(l)['threads']))")
check "kevtop: no frame gives an executed estimate ($top rows with one)" "[ '${top:-1}' = 0 ]"
"$h/kev2ctf" -o "$out/ctf" "$out/t.kev" 2>"$out/ctf.err"
tid=$(python3 -c "
import json, sys
t = [t for t in json.load(open(sys.argv[1]))['threads'] if t['name'] == 'exechog/main'][0]
print(t['pid'] * 1000 + t['tid'])" "$out/stat.json")
ctf=$(babeltrace2 "$out/ctf" 2>/dev/null | sed -n "s/.* sched_switch: .*{ prev_exec_cycles = \([0-9]*\) }, { prev_comm = \"[^\"]*\", prev_tid = $tid, .*/\1/p" |
      awk '{ s += $1 } END { print s + 0 }')
check "CTF: the hog's (tid $tid) runs in sched_switch's context add up to $ctf, its RUNNING time $run within 2 %" \
    "within '${ctf:-0}' '${run:-1}'"
"$h/kevreport" -o "$out/report.html" "$out/t.kev" >/dev/null 2>&1
rep=$(timeout 120 /usr/bin/python3 "$here/../tools/page_exec.py" report "$out/report.html" exechog/main 2>"$out/page.err")
check "the report's page (Chromium): no executed estimate ($rep)" "[ '$rep' = none ]"
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
check "kevweb's page (Chromium) over the finished file: no executed estimate ($kw)" "[ '$kw' = none ]"
echo "1..$n"
