#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pid probes placed and taken off while the probed function runs on every CPU (docs/pid.md,
# "Several CPUs"), in the pidsmp image: appinit starts usdtdemo, whose thread on each CPU
# calls step_plain(k, acc) for k = 1, 2, ... and checks every result, and then dtrace, whose
# pid$target probes on step_plain are placed while those threads run (the first boot on the
# instruction count, the others with QEMU's CPUs running at once on host threads) and come
# off, after 800 firings, while they still run (the program
# runs on until it has seen its text trapped and back, and each thread has called again). Checked
# against the program's own counters:
#  - nothing crashed: both exited 0, and every thread's results were right (a displaced
#    instruction run wrong, a torn write seen by another CPU, would show there or as a fault);
#  - every thread was seen by D (the probes fired on every CPU), and for each thread D's entry
#    count is the span of the k the thread passed it (its first to its last): while placed,
#    no call of any CPU was missed or counted twice; the removal came before a thread's last
#    call (the program's count of its calls), and on the instruction count the placing after
#    a thread's first (on host threads dtrace may place them before the threads start);
#  - each thread's return firings are its entry firings, give or take the one call a write
#    fell in.
# ROUNDS boots (3 by default).
#   test/qemu/test_pid_smp.sh BUILD_DIR HOST_DIR     (BOARD in the environment)
set -u
B=$(cd "$1" && pwd); H=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/scripts/console.sh"
. "$here/test/qemu/tap_lib.sh"
img=$B/pidsmp.elf
prog=$B/pidsmp/usdtdemo.elf
rounds=${ROUNDS:-3}
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "# files in $tmp"
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
echo "1..$((3 * rounds))"
cat > "$tmp/smp.d" <<'D'
#pragma D option quiet
pid$target::step_plain:entry { @c[tid] = count(); @lo[tid] = min(arg0); @hi[tid] = max(arg0); }
pid$target::step_plain:return { @r[tid] = count(); }
pid$target::step_plain:entry /++n == 800/ { exit(0); }
END { printa("SMP C %d %@d\n", @c); printa("SMP L %d %@d\n", @lo); printa("SMP H %d %@d\n", @hi);
    printa("SMP R %d %@d\n", @r); }
D
"$H/dcompile" --elf "$prog" -T usdtdemo -s "$tmp/smp.d" -o "$tmp/smp.dobj" 2> "$tmp/dcompile.err" ||
    sed 's/^/# /' "$tmp/dcompile.err"
# step_plain's first word as the ELF file has it (gdb reads it there), for the program to tell
# its text trapped from its text back even when dtrace places the probes before it starts
word=$(gdb-multiarch -batch -nx "$prog" -ex 'printf "%#x\n", *(unsigned int *)step_plain' 2>/dev/null | tail -1)
echo "# step_plain's first word in the ELF file: $word"
for round in $(seq "$rounds"); do
    # the first round on the instruction count (QEMU runs the CPUs in turn, a few thousand
    # instructions each), the others with the CPUs at once, a host thread each
    icount=none
    [ "$round" = 1 ] && icount=0
    # The boot prints nothing between appinit's start and dtrace's END and has no trace to
    # grow (25-47 s of silence at host load 12 on 2 cores): the watch for silence
    # (QEMU_HANG) would take a loaded host for a hang; the timeout bounds it instead.
    (cd "$tmp" && QEMU_ARGS="appinit usdtdemo dtrace ;; usdtdemo smp 100000 $word ;; dtrace $tmp/smp.dobj" \
        QEMU_HANG=0 QEMU_ICOUNT=$icount QEMU_TIMEOUT=${QEMU_TIMEOUT:-120} "$here/scripts/qemu-run.sh" "$img" > "$tmp/live" 2>&1)
    rc=$?
    sum=$(grep -o 'usdtdemo: smp [0-9]* threads on [0-9]* CPUs, [0-9]* calls, [0-9]* wrong or lost' "$tmp/live")
    check "round $round: usdtdemo's threads and dtrace ran to the end, every result right, the program saw its text trapped and back ($sum)" \
        '[ $rc = 0 ] && grep -q "appinit: done, 0 failures" "$tmp/live" && [ -n "$sum" ] &&
         echo "$sum" | grep -q ", 0 wrong or lost$" &&
         grep -q "usdtdemo: smp step_plain.s text: trap seen, instruction back seen" "$tmp/live"'
    [ $rc = 0 ] || tail -8 "$tmp/live" | sed 's/^/# /'
    # per thread: tid, the program's calls; D's count, first and last k, returns
    grep -o 'usdtdemo: smp cpu [0-9]* tid [0-9]* calls [0-9]*' "$tmp/live" |
        awk '{ print $6, $8 }' | sort > "$tmp/prog"
    con_of dtrace < "$tmp/live" | awk '$1 == "SMP" { v[$3, $2] = $4; t[$3] = 1 }
        END { for (k in t) print k, v[k, "C"] + 0, v[k, "L"] + 0, v[k, "H"] + 0, v[k, "R"] + 0 }' |
        sort > "$tmp/d"
    join "$tmp/prog" "$tmp/d" > "$tmp/both"
    nthreads=$(wc -l < "$tmp/prog")
    seen=$(awk '$3 > 0' "$tmp/both" | wc -l)
    spans=$(awk '{ printf " %s:%s/%s-%s", $1, $3, $4, $5 }' "$tmp/both")
    check "round $round: D saw all $nthreads threads' calls ($seen), each thread's count the span of its k while placed (tid:count/first-last$spans), off before a last, and (on the instruction count) placed after a first" \
        '[ "$nthreads" -ge 2 ] && [ "$seen" = "$nthreads" ] &&
         awk -v need_late=$((round == 1)) "\$3 != \$5 - \$4 + 1 || \$5 >= \$2 { bad = 1 } \$4 > 1 { late = 1 } END { exit bad || (need_late && !late) }" "$tmp/both"'
    rets=$(awk '{ printf " %s:%s/%s", $1, $3, $6 }' "$tmp/both")
    check "round $round: each thread's return firings are its entries, give or take one (tid:entries/returns$rets)" \
        'awk "{ d = \$3 - \$6; if (d < -1 || d > 1) bad = 1 } END { exit bad }" "$tmp/both" && [ -s "$tmp/both" ]'
done

