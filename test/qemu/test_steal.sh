#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Threads taken from another CPU's run queue (STEAL, sched:::dequeue's args[2]) live and over
# the capture, against the program's own count: user/apps/steal wakes six threads at a time on
# CPU 0's queue while CPU 0 stays busy, and the other CPUs take them (idle and interrupted for
# them, or choosing after their own thread blocked). A D program counts, on the board (dtrace
# -K -c appinit, as make dtrace) and with dtrace -i over the same boot's capture, each dequeue
# whose queue is another CPU's than the one that runs the thread, per thread of steal's, and
# whosteal's kind of count (a dequeue on an idle CPU of a thread queued on another's, by the
# thread's program and the queue's CPU). Truths: the two outputs are equal byte for byte; each
# thread's count is the one the program saw in the kernel's thread table (a run on another CPU
# than CPU 0, where it was queued; no worker is preempted, so none moves while it runs);
# the capture's STEAL events, counted from traceprinter's lines apart from dtrace, are the
# program's count; every taken thread came from CPU 0's queue, but for the moves; idle CPUs
# took some (whosteal prints). One boot of about 3 s on qemu-virt-a53 (4 CPUs).
#   BOARD=qemu-virt-a53 test/qemu/test_steal.sh BUILD_DIR HOST_DIR
set -u
B=$(cd "$1" && pwd); H=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/scripts/console.sh"
. "$here/test/qemu/tap_lib.sh"
board=${BOARD:-qemu-virt-a53}
TAP_PREFIX="$board: "
img=$B/stealtest.elf
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "# files in $tmp"
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
echo "1..8"

cat > "$tmp/steal.d" <<'D'
#pragma D option quiet
/* a thread leaving a run queue that is not the one of the CPU about to run it */
sched:::dequeue
/args[2]->cpu_id != -1 && args[2]->cpu_id != cpu && (curlwpsinfo->pr_flag & PR_IDLE)/
{
	@idle[stringof(args[1]->pr_fname), args[2]->cpu_id] = count();
}
sched:::dequeue
/args[2]->cpu_id != -1 && args[2]->cpu_id != cpu && stringof(args[1]->pr_fname) == "steal"/
{
	@taken[args[0]->pr_lwpid] = count();
	@from[args[2]->cpu_id] = count();
}
END
{
	printa("idle %s from %d %@d\n", @idle);
	printa("taken %d %@d\n", @taken);
	printa("from %d %@d\n", @from);
}
D
"$H/dcompile" --kernel "$img" -s "$tmp/steal.d" -o "$tmp/steal.dobj" > "$tmp/cc.err" 2>&1
ok $? "the counting script compiles for the board"
[ -s "$tmp/cc.err" ] && sed 's/^/# /' "$tmp/cc.err"

(cd "$tmp" && QEMU_ICOUNT=exact QEMU_TIMEOUT=${QEMU_TIMEOUT:-120} \
    QEMU_ARGS="dtrace -K -c appinit $tmp/steal.dobj ;; appinit steal ;; tracelogger -d1 -f $tmp/trace.kev" \
    "$here/scripts/qemu-run.sh" "$img" > "$tmp/run.out" 2>&1)
rc=$?
con_of dtrace < "$tmp/run.out" | grep -v '^kernel: ' | grep -v '^dtrace: ' > "$tmp/live.out"
con_of steal < "$tmp/run.out" | grep '^steal: ' > "$tmp/prog.out"
total=$(sed -n 's/^steal: [0-9]* threads, [0-9]* runs, \([0-9]*\) taken from CPU 0, \([0-9]*\) moved.*/\1 \2/p' "$tmp/prog.out")
read -r ntaken nmoved <<<"${total:-x x}"
check "the boot ran to its end, steal counted its threads' runs elsewhere than CPU 0 (status $rc: ${total:-none})" \
    "[ $rc = 0 ] && [ '${ntaken:-0}' -gt 0 ] 2>/dev/null"
[ $rc = 0 ] || tail -8 "$tmp/run.out" | sed 's/^/# /'
sed 's/^/# /' "$tmp/prog.out" | tail -1

(cd "$tmp" && "$H/dtrace" -i "$tmp/trace.kev" -s "$tmp/steal.d" > "$tmp/cap.out" 2> "$tmp/cap.err")
crc=$?
check "dtrace -i over the capture exits 0 with no error ($crc)" \
    "[ $crc = 0 ] && ! grep -qi 'error' '$tmp/cap.err'"
sed 's/^/# stderr: /' "$tmp/cap.err" | head -4
check "the dequeues from another CPU's queue, whosteal's among them, the same over the capture as live ($(grep -c . "$tmp/live.out") lines)" \
    "grep -q . '$tmp/live.out' && cmp -s '$tmp/live.out' '$tmp/cap.out'"
cmp -s "$tmp/live.out" "$tmp/cap.out" || diff "$tmp/live.out" "$tmp/cap.out" | head -10 | sed 's/^/# /'

# each thread's count, the program's (taken + moved) against D's (absent: 0); no worker is
# preempted (FIFO above every other program: user/apps/steal), so moved is 0 and the count exact
bad=$(awk 'NR == FNR { if ($1 == "taken") d[$2] = $3; next }
           $2 == "thread" { want = $7 + $9; got = ($3 in d) ? d[$3] : 0
                            if (got != want) printf "thread %s: D %d, the program %d; ", $3, got, want }' \
          "$tmp/cap.out" "$tmp/prog.out")
check "each thread's dequeues from another CPU's queue are the ones it saw in the thread table (${ntaken:-?} taken, ${nmoved:-?} moved)" \
    "[ -z '$bad' ] && [ '${nmoved:-x}' = 0 ] && grep -q '^taken ' '$tmp/cap.out'"
[ -n "$bad" ] && echo "# $bad"

# the raw events, apart from dtrace: traceprinter's STEAL lines whose thread (who, pid << 16 |
# tid) is one of steal's
pid=$(sed -nE 's#^([0-9]+)/steal: .*#\1#p' "$tmp/run.out" | head -1)
"$H/traceprinter" "$tmp/trace.kev" > "$tmp/tp.txt" 2>&1
whohi=$(printf '%04x' "${pid:-0}")
nsteal=$(grep -cE "SYSTEM *:STEAL .*who:0x${whohi}[0-9a-f]{4} " "$tmp/tp.txt")
check "the capture's STEAL events of steal's threads (traceprinter: $nsteal, pid ${pid:-none}) are the program's count ($(( ${ntaken:-0} + ${nmoved:-0} )))" \
    "[ '$nsteal' = '$(( ${ntaken:-0} + ${nmoved:-0} ))' ]"
grep -m2 STEAL "$tmp/tp.txt" | sed 's/^/# /'

from0=$(sed -n 's/^from 0 \([0-9]*\)$/\1/p' "$tmp/cap.out")
check "taken from CPU 0's queue: ${from0:-none} of them, the program's ${ntaken:-?} runs elsewhere" \
    "[ '${from0:-x}' -ge '${ntaken:-y}' ] 2>/dev/null && [ '${from0:-x}' -le \$(( ${ntaken:-0} + ${nmoved:-0} )) ]"
check "whosteal's count: idle CPUs took steal's threads, the same both ways" \
    "grep -q '^idle steal from 0 ' '$tmp/cap.out'"
