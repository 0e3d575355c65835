#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Threads woken across CPUs, as the capture and D tell them (kernel/sched.c, TRACE ORDER): the
# smpstressd image (smpstress under dtrace, with appinit and the tracelogger) runs smpstress's
# `xwake` part (user/apps/smpstress/st_xwake.c: a server on CPU 0 answers a client on each
# other CPU while every CPU chooses over and over), on the host's clock, a host thread per CPU
# (QEMU_ICOUNT=none: the CPUs truly at once), with 2 CPUs and then 4. Two truths, neither our
# decoder's:
#   - a scheduler's: in the capture, a thread runs only once it was made ready, on one CPU at a
#     time, and blocks on the CPU it runs on (test/qemu/thread_states_check.py);
#   - the same D script live and over the capture gives the same counts (dtrace -i): wakeups,
#     enqueues, dequeues, on-cpu per CPU, sleeps per state, ticks, per thread.
# A waker that recorded a thread's READY after letting the other CPU's queue lock go broke both:
# 250-350 threads run twice at once per 2-CPU boot, 24-26 rows apart (the kernel before the
# fix; one -icount CI run of the parity test was off by one in five scripts the same way).
#   test/qemu/test_states_cpus.sh BUILD_DIR HOST_DIR      (a board with several CPUs; TAP)
set -u
b=$(cd "$1" && pwd) h=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
board=$(basename "$b")
out=$b/test-states-cpus
rm -rf "$out" && mkdir -p "$out"
. "$here/tap_lib.sh"
echo "1..10"

# dtrace 1, appinit 2, the tracelogger 3: smpstress (4) starts after the capture does and ends
# before it stops, so both sides see all of its events.
cat > "$out/xwake.d" <<'D'
#pragma D option quiet
#pragma D option aggsize=256k
#pragma D option dynvarsize=64k
sched:::wakeup /args[1]->pr_pid > 3/ { @w[args[1]->pr_pid, args[0]->pr_lwpid, execname] = count(); }
sched:::enqueue /args[1]->pr_pid > 3/ { @e[args[1]->pr_pid, args[0]->pr_lwpid] = count(); }
sched:::dequeue /args[1]->pr_pid > 3/ { @d[args[1]->pr_pid, args[0]->pr_lwpid] = count(); }
sched:::on-cpu /pid > 3/ { @o[pid, tid, cpu] = count(); }
sched:::sleep /pid > 3/ { @s[pid, tid, arg3] = count(); }
sched:::tick /pid > 3/ { @t[pid, tid] = count(); }
END
{
	printa("@@P wakeup %d %d %s %@d\n", @w);
	printa("@@P enqueue %d %d %@d\n", @e);
	printa("@@P dequeue %d %d %@d\n", @d);
	printa("@@P on-cpu %d %d %d %@d\n", @o);
	printa("@@P sleep %d %d %d %@d\n", @s);
	printa("@@P tick %d %d %@d\n", @t);
}
D
"$h/dcompile" -s "$out/xwake.d" -o "$out/xwake.dobj" > "$out/dcompile.log" 2>&1 ||
    sed 's/^/# /' "$out/dcompile.log"

for ncpu in 2 4; do
    log=$out/smp$ncpu.log kev=$out/smp$ncpu.kev
    (cd "$out" && BOARD=$board QEMU_SMP=$ncpu QEMU_ICOUNT=none QEMU_TIMEOUT=${QEMU_TIMEOUT:-240} \
        QEMU_ARGS="dtrace -c appinit $out/xwake.dobj ;; appinit smpstress ;; smpstress xwake ;; tracelogger -d1 -k 32 -f $kev" \
        "$root/scripts/qemu-run.sh" "$b/smpstressd.elf" > "$log" 2>&1)
    rc=$?
    line=$(grep -a -o 'ok 21 - .*' "$log" | head -1)
    grep -a -o '^.*not ok 21 - .*' "$log" | sed 's/^/# /'
    [ $rc = 0 ] && grep -aq '^[0-9]*/smpstress: ok 21 ' "$log" && grep -aq 'appinit: done, 0 failures' "$log"
    ok $? "$ncpu CPUs: xwake ran under dtrace and the tracelogger, every answer right (${line:0:160})"
    lost=$(grep -a -o 'tracelogger: [0-9]* events lost' "$log" | head -1)
    grep -aq 'tracelogger: no events lost' "$log"
    ok $? "$ncpu CPUs: the capture lost nothing${lost:+ # $lost}"
    "$h/traceprinter" -m "$kev" > "$out/smp$ncpu.txt" 2> "$out/smp$ncpu.tperr"
    python3 "$here/thread_states_check.py" "$out/smp$ncpu.txt" --min-cross 50 > "$out/smp$ncpu.states" 2>&1
    rc=$?
    sed 's/^/# /' "$out/smp$ncpu.states"
    ok $rc "$ncpu CPUs: every thread's states in the capture are a scheduler's ($(head -1 "$out/smp$ncpu.states"))"
    "$h/dtrace" -i "$kev" -s "$out/xwake.d" > "$out/smp$ncpu.cap" 2> "$out/smp$ncpu.caperr"
    sed -n 's/.*@@P //p' "$log" | sort > "$out/smp$ncpu.l"
    sed -n 's/.*@@P //p' "$out/smp$ncpu.cap" | sort > "$out/smp$ncpu.c"
    nl=$(wc -l < "$out/smp$ncpu.l")
    diff "$out/smp$ncpu.l" "$out/smp$ncpu.c" > "$out/smp$ncpu.diff"
    ndiff=$(grep -c '^[<>]' "$out/smp$ncpu.diff")
    head -12 "$out/smp$ncpu.diff" | sed 's/^/# /'
    [ "$nl" -gt 20 ] && [ "$ndiff" = 0 ]
    ok $? "$ncpu CPUs: the D script's counts live equal dtrace -i's over the capture ($nl rows, $ndiff lines apart)"
    # the spinners did make their calls (a few thousand with 2 CPUs, millions with 4, on a
    # 2-core host)
    calls=$(sed -n 's/.*meanwhile (\([0-9]*\) calls).*/\1/p' <<< "$line")
    [ "${calls:-0}" -gt 1000 ]
    ok $? "$ncpu CPUs: the spinners chose on every CPU meanwhile (${calls:-?} calls)"
done
