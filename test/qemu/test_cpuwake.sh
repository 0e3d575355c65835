#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Several CPUs seen as they ran, against a program's own counts (user/apps/cpuwake, on every
# CPU under -icount, traced by the tracelogger): a producer on CPU 0 wakes two consumers on the
# last two CPUs through a mutex and a condvar, by CondSignal or CondBroadcast (QNX's one call
# number, 83, its `all` argument telling them apart), and a mover changes CPUs.
#   - names: CondBroadcast as often as the program called it, CondSignal as often, in kevstat,
#     kevsql, the report, the CTF (babeltrace2) and Perfetto (protoc); every condvar wait the
#     program counted signalled by the producer, none "held by"; the logger's own kernel calls
#     (TraceEvent's EAGAIN polling) in rows of their own, not the program's;
#   - wake-ups across CPUs: kevsql's wait_preemptor names no idle thread as a preemptor; its
#     'waking' rows are kevstat's, and each is, in the capture's own events (traceprinter), a
#     thread made ready on one CPU and run on another after that CPU's IPI
#     (wake_latency_check.py); and the wait chains name the same time: each (waiter, root)'s
#     waking time is the root's cross-CPU wake-ups, while its CPU was idle, inside the
#     waiter's mutex waits, in those events (chain_wake_check.py);
#   - LTTng's analyses over kev2ctf's CTF against kevstat (check_lttng.py): CPU, interrupts,
#     kernel calls, and the migrations lttng-cputop counts from sched_migrate_task; the mover's,
#     in kevstat and in lttng-cputop, are the moves it counted in the kernel's thread table.
#   BOARD=<board> test/qemu/test_cpuwake.sh BUILD_DIR HOST_DIR
set -u
b=$1
h=$2
here=$(cd "$(dirname "$0")" && pwd)
out=$b/test-cpuwake
rm -rf "$out" && mkdir -p "$out"
. "$here/tap_lib.sh"
QEMU_ARGS="appinit cpuwake ;; tracelogger -d1 -f $out/t.kev" QEMU_TIMEOUT=150 \
    "$here/../../scripts/qemu-run.sh" "$b/cpuwaketest.elf" -icount shift=0,sleep=off >"$out/run.log" 2>&1
rc=$?
counts=$(sed -n 's/.*cpuwake: \([0-9]*\) broadcasts, \([0-9]*\) signals, [0-9]* items, \([0-9]*\) condvar waits, \([0-9]*\) moves by thread \([0-9]*\).*/\1 \2 \3 \4 \5/p' "$out/run.log")
read -r bc sig waits moves mover <<<"${counts:-x x x x x}"
check "cpuwake runs to its end under a capture on every CPU, no event lost ($counts)" \
    "[ $rc = 0 ] && [ -n '$counts' ] && grep -q 'tracelogger: no events lost' $out/run.log"
"$h/kevstat" "$out/t.kev" >"$out/stat.txt" 2>&1
row() { sed -n "s/^  $1  *\([0-9]*\) .*/\1/p" "$out/stat.txt"; }
check "kevstat: CondBroadcast $(row CondBroadcast) times, CondSignal $(row CondSignal) (the program: $bc, $sig)" \
    "[ '$(row CondBroadcast)' = '$bc' ] && [ '$(row CondSignal)' = '$sig' ]"
sq() { "$h/kevsql" --csv "$out/t.kev" "$1" 2>&1 | tail -n +2; }
c=$(sq "SELECT count(*) FROM kcall WHERE name = 'CondBroadcast'")
check "kevsql: kcall names CondBroadcast $c times" "[ '$c' = '$bc' ]"
"$h/kevreport" -o "$out/report.html" "$out/t.kev" >/dev/null 2>&1
check "the report: a CondBroadcast row of $bc" "grep -q '\"name\":\"CondBroadcast\",\"count\":$bc,' $out/report.html"
"$h/kev2ctf" -o "$out/ctf" "$out/t.kev" 2>/dev/null
c=$(babeltrace2 "$out/ctf" 2>/dev/null | grep -c ' syscall_entry_CondBroadcast: ')
check "CTF: babeltrace2 reads $c syscall_entry_CondBroadcast" "[ '$c' = '$bc' ]"
"$h/kev2perfetto" -o "$out/t.pftrace" "$out/t.kev" 2>/dev/null
c=$(protoc --decode_raw <"$out/t.pftrace" | grep -c '"CondBroadcast"')
check "Perfetto: $c CondBroadcast slices (protoc)" "[ '$c' = '$bc' ]"
"$h/kevstat" -s waits "$out/t.kev" >"$out/waits.txt" 2>&1
c=$(grep -c '(CONDVAR) on condvar [0-9]* signalled by cpuwake/main$' "$out/waits.txt")
check "kevstat: each of the program's $waits condvar waits signalled by the producer ($c), none held by anyone" \
    "[ '$c' = '$waits' ] && ! grep -q '(CONDVAR) on .* held by' $out/waits.txt"
lg=$(sq "SELECT count(*) FROM kcall JOIN thread USING (utid) JOIN process USING (upid) WHERE kcall.name = 'TraceEvent' AND process.name = 'tracelogger'")
check "kevstat: the logger's $lg TraceEvent calls in a row of their own, its EAGAINs not the program's" \
    "[ '$(row 'TraceEvent \[logger\]')' = '$lg' ] && [ '$lg' -gt 0 ] &&
     sed -n '/^  TraceEvent  /,/^  [A-Z]/p' $out/stat.txt | grep -vq EAGAIN"
idle=$(sq "SELECT count(*) FROM wait_preemptor JOIN thread USING (utid) WHERE thread.name = 'idle'")
wk=$(sq "SELECT count(*) FROM wait_preemptor WHERE what = 'waking'")
ks=$(grep -c ' waking [0-9.]* us (its wake-up' "$out/waits.txt")
check "kevsql: no wait preempted by an idle thread ($idle); $wk cross-CPU wake-ups named waking, kevstat's $ks" \
    "[ '$idle' = 0 ] && [ '$wk' -gt 0 ] && [ '$wk' = '$ks' ]"
"$h/traceprinter" -m "$out/t.kev" >"$out/tp.txt" 2>/dev/null
cps=$(awk '/TRACE_CYCLES_PER_SEC::/ { print $2; exit }' "$out/tp.txt")
sq "SELECT p.pid, t.tid, x.ts, x.dur FROM wait_preemptor w JOIN thread t ON t.utid = w.owner_utid
    JOIN process p ON p.upid = t.upid JOIN wait x ON x.id = w.wait_id WHERE w.what = 'waking'" |
    tr , ' ' | python3 "$here/wake_latency_check.py" "$out/tp.txt" "${cps:-1}" >"$out/wake.txt" 2>&1
ok $? "the capture's events: $(head -1 "$out/wake.txt")"
"$h/kevstat" --json "$out/t.kev" >"$out/stat.json" 2>/dev/null
python3 "$here/chain_wake_check.py" "$out/stat.json" "$out/tp.txt" >"$out/chain.txt" 2>&1
ok $? "the wait chains: $(grep 'pairs with waking' "$out/chain.txt")"
pid=$(sq "SELECT pid FROM process WHERE name = 'cpuwake'")
python3 "$here/../tools/check_lttng.py" "$h" "$out/t.kev" "$out/lttng" --moves "${pid:-0}/${mover:-0}=${moves:-0}" \
    >"$out/lttng.tap" 2>&1
relay "$out/lttng.tap"
echo "1..$n"
