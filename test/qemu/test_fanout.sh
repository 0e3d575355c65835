#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# D on several CPUs does not change what a program misses (docs/smp.md, "D on several CPUs"):
# user/apps/fanout, a 1 kHz source on CPU 0 fanning batches out to workers bound to CPUs 1-3
# (pulses out, a shared mutex per unit of work, a semaphore back), counts its deadline misses
# by its own clock (ClockCycles), in exact mode (QEMU_ICOUNT=exact: the same run every time),
# once as make run APPS=fanout runs it (appinit, fanout and the tracelogger: image fanoutrun)
# and once as make dtrace APPS=fanout does (the board's dtrace -K -c appinit: image fanoutd)
# with a D program on the sched and kernel-call probes of every CPU. The truths are fanout's:
#   - under make run it misses exactly the batches it overloads by design (every 40th);
#   - under make dtrace it misses the same batches, no more (D's firings on four CPUs wait for
#     no other CPU and keep no CPU out of the kernel: what they add to a batch is their own
#     instructions, which the program's slack absorbs), while the D program did fire on all
#     four CPUs (its per-CPU counts of switches and kernel calls) and dropped nothing;
#   - the kernel entries that kept every CPU out (SysInfo's count, which fanout reads around
#     its batches) are no more under D than without, give or take 10 % (with every CPU's tick
#     taken exclusive while D ran: 2,029 against 820);
#   - the probe effect, measured: the mean and worst response of the ordinary batches both
#     ways (printed), the mean's growth held under PROBE_EFFECT_MAX_US.
#   BOARD=<board> test/qemu/test_fanout.sh BUILD_DIR HOST_DIR     (a board with 4 CPUs; TAP)
set -u
b=$(cd "$1" && pwd) h=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$root/scripts/console.sh"
. "$here/tap_lib.sh"
out=$b/test-fanout
rm -rf "$out" && mkdir -p "$out"
BATCHES=400 HEAVY_EVERY=40
# The ordinary batches' mean response may grow by this much under the D program (76 us measured
# on qemu-virt-a53, docs/smp.md "D on several CPUs": about 1.5 x that).
PROBE_EFFECT_MAX_US=${PROBE_EFFECT_MAX_US:-115}
echo "1..8"

cat > "$out/fan.d" <<'D'
#pragma D option quiet
sched:::on-cpu, sched:::off-cpu { @sw[cpu] = count(); }
sched:::wakeup, sched:::enqueue, sched:::dequeue { @q[cpu] = count(); }
kercall:::entry { @calls[cpu] = count(); @byname[probefunc] = count(); }
kercall:::return /arg0 < 0/ { @errs[probefunc] = count(); }
END
{
	printa("sw %d %@d\n", @sw);
	printa("q %d %@d\n", @q);
	printa("calls %d %@d\n", @calls);
}
D
"$h/dcompile" --kernel "$b/fanoutd.elf" -s "$out/fan.d" -o "$out/fan.dobj" >"$out/cc.log" 2>&1
ok $? "the D program compiles for the board"

# boot IMAGE LOG ARGS: one exact-mode boot.
boot() {
    (cd "$out" && QEMU_ICOUNT=exact QEMU_TIMEOUT=${QEMU_TIMEOUT:-240} QEMU_ARGS="$3" \
        "$root/scripts/qemu-run.sh" "$b/$1.elf" >"$out/$2" 2>&1)
}
boot fanoutrun run.log "appinit fanout ;; fanout $BATCHES ;; tracelogger -d1 -f $out/run.kev"
rrc=$?
boot fanoutd d.log "dtrace -K -c appinit $out/fan.dobj ;; appinit fanout ;; fanout $BATCHES ;; tracelogger -d1 -f $out/d.kev"
drc=$?
line() { con_of fanout <"$out/$1" | grep -a '^fanout: .* batches, missed'; }
run=$(line run.log) d=$(line d.log)
echo "# make run:    ${run:-none}"
echo "# make dtrace: ${d:-none}"
misses() { sed -n 's/.*missed [0-9]*:\([0-9 ]*\);.*/\1/p' <<<"$1" | xargs; }
field() { sed -n "s/.*; worst \([0-9]*\) us, mean \([0-9]*\) us,.*/\\$2/p" <<<"$1"; }
check "both boots ran fanout to its end, every unit counted (status $rrc and $drc)" \
    "[ $rrc = 0 ] && [ $drc = 0 ] && [ -n '$run' ] && [ -n '$d' ] && grep -aq 'appinit: done, 0 failures' $out/run.log && grep -aq 'appinit: done, 0 failures' $out/d.log"
want=$(seq $((HEAVY_EVERY - 1)) $HEAVY_EVERY $((BATCHES - 1)) | xargs)
check "make run: fanout missed exactly its overloaded batches, by its clock ($(misses "$run"))" \
    "[ '$(misses "$run")' = '$want' ]"
check "make dtrace: the same batches missed ($(misses "$d"))" "[ -n '$want' ] && [ '$(misses "$d")' = '$(misses "$run")' ]"
con_of dtrace <"$out/d.log" >"$out/d.out"
cpus() { awk -v k="$1" '$1 == k && $3 > 0 { print $2 }' "$out/d.out" | sort -n | xargs; }
check "the D program fired on every CPU: switches on CPUs $(cpus sw), kernel calls on CPUs $(cpus calls)" \
    "[ '$(cpus sw)' = '0 1 2 3' ] && [ '$(cpus calls)' = '0 1 2 3' ]"
check "dtrace dropped nothing and saw no error" "! grep -aE 'drops? on CPU|error' $out/d.out"
excl() { sed -n 's/.*, exclusive entries \([0-9]*\)$/\1/p' <<<"$1"; }
re=$(excl "$run") de=$(excl "$d")
check "D kept no CPU out: $de kernel entries ran exclusive during the batches, $re without D" \
    "[ -n '$re' ] && [ -n '$de' ] && [ \$(( de * 10 )) -le \$(( re * 11 )) ]"
rm_=$(field "$run" 2) dm=$(field "$d" 2) rw=$(field "$run" 1) dw=$(field "$d" 1)
echo "# ordinary batches: mean ${rm_:-?} -> ${dm:-?} us, worst ${rw:-?} -> ${dw:-?} us under D"
check "the probe effect: the ordinary batches' mean response grew by $(( ${dm:-0} - ${rm_:-0} )) us, at most $PROBE_EFFECT_MAX_US" \
    "[ -n '$rm_' ] && [ -n '$dm' ] && [ $(( ${dm:-0} - ${rm_:-0} )) -le $PROBE_EFFECT_MAX_US ]"
