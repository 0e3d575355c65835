#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every fbt probe at once (docs/fbt.md, "How it is checked"): fbt:::entry and fbt:::return,
# every function the table lets probe, counted by the board's dtrace while a workload that
# attacks the kernel runs: the hostile-process suite (kt_hostile under dtrace: the fbthostile
# image), and on a board with several CPUs the SMP stress test's shared-side part too (smpstressd).
# The probes must cost the system nothing but time: it ends normally (no kernel fault, no
# hang: QEMU's timeout), the workload runs to its end (the suite through its last attack,
# a breakpoint instruction among them; smpstress's checks), D drops nothing and faults nowhere,
# and the counts are plausible: the traced kernel-call dispatcher's entries equal
# kercall:::entry's count, and every function's returns its entries but for the calls under
# way when the probes went on or off (at most 2 either way).
#   test/qemu/test_fbt_all.sh BUILD_DIR HOST_DIR     (BOARD in the environment)
set -u
B=$(cd "$1" && pwd); H=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/scripts/console.sh"
. "$here/test/qemu/tap_lib.sh"
. "$here/test/stacks/stacks_lib.sh"
board=${BOARD:-mps2-an385}
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "# files in $tmp"
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
D='fbt:::entry { @e[probefunc] = count(); } fbt:::return { @r[probefunc] = count(); }
kercall:::entry { @k = count(); }
END { printa("@@E %s %@d\n", @e); printa("@@R %s %@d\n", @r); printa("@@K %@d\n", @k); }'
systems="fbthostile:kt_hostile"
[ -f "$B/smpstressd.elf" ] && systems="$systems smpstressd:appinit"
echo "1..$((6 * $(echo $systems | wc -w)))"
for s in $systems; do
    image=${s%%:*} work=${s#*:}
    img=$B/$image.elf
    TAP_PREFIX="$image: "
    rest=""
    # smpstress's part that stays bounded with every probe firing: MsgError on the shared
    # side between CPUs (its other parts count exclusive entries, which a D program raises
    # by design, or make millions of calls, hours at a thousand instructions a probe)
    [ "$work" = appinit ] && rest=" ;; appinit smpstress ;; smpstress icount error"
    if uart_board "$board"; then
        args="dtrace -q -c $work -n '$D'$rest"
    else
        "$H/dcompile" --kernel "$img" -q -n "$D" -o "$tmp/$image.dobj" 2> "$tmp/$image.err" ||
            sed 's/^/# /' "$tmp/$image.err"
        args="dtrace -q -c $work $tmp/$image.dobj$rest"
    fi
    start=$(date +%s)
    # In virtual time, idle included (sleep=off): the suite's latency checks then hold or
    # fail the same on every run, whatever the host's load (test/qemu/test_hostile.sh too).
    # QEMU runs in $tmp: the image's tracelogger writes tracebuffer.kev where QEMU runs.
    (cd "$tmp" && QEMU_ARGS=$args QEMU_TIMEOUT=${QEMU_TIMEOUT:-400} \
        exec "$here/scripts/qemu-run.sh" "$img" -icount shift=0,sleep=off) > "$tmp/$image.out" 2>&1
    rc=$?
    echo "# $image: $(($(date +%s) - start)) s"
    ok $rc "the system ran with every fbt probe placed and exited 0 (status $rc)"
    [ $rc = 0 ] || tail -15 "$tmp/$image.out" | sed 's/^/# /'
    ! grep -qE '^kernel: (panic|fault in kernel|.*lockup)' "$tmp/$image.out" &&
        grep -qE '^kernel: pid 1 exited with status 0; halting$' "$tmp/$image.out"
    ok $? "the kernel ended the boot itself, no fault of its own"
    if [ "$work" = kt_hostile ]; then
        last=$(con_of kt_hostile < "$tmp/$image.out" | grep -E '^# kt_hostile: [0-9]+ checks' | tail -1)
        con_of kt_hostile < "$tmp/$image.out" | grep -q '^ok [0-9]* - attack [0-9]* (a breakpoint instruction no debugger takes) was refused'
        bk=$?
        check "the suite ran through every attack and passed, its breakpoint instruction contained (${last:-no end line})" \
            '[ $bk = 0 ] && echo "$last" | grep -qE "^# kt_hostile: [0-9]+ checks, 0 failed$"'
        con_of kt_hostile < "$tmp/$image.out" | grep '^not ok' | sed 's/^/# /'
    else
        nok=$(con_of smpstress < "$tmp/$image.out" | grep -c '^ok ')
        nbad=$(con_of smpstress < "$tmp/$image.out" | grep -c '^not ok ')
        check "smpstress ran its checks ($nok ok, $nbad not ok)" '[ "$nok" -ge 1 ] && [ "$nbad" = 0 ]'
    fi
    ! con_of dtrace < "$tmp/$image.out" | grep -qE '^dtrace: .*(drops|error)'
    ok $? "D dropped nothing and faulted nowhere"
    con_of dtrace < "$tmp/$image.out" | grep '^@@' > "$tmp/$image.d"
    nfun=$(grep -c '^@@E' "$tmp/$image.d")
    k=$(awk '$1 == "@@K" { print $2 }' "$tmp/$image.d")
    # The function every kernel call's entry record passes through while D runs: the traced
    # dispatcher on one CPU; on AArch64 a call may begin on the shared side, inside the
    # entry code the rules keep unprobed (docs/fbt.md, "Placing on several CPUs"), and each
    # call's kercall:::entry fires in ktrace_kcall_entry_full (kernel/ktrace.c).
    case $board in qemu-virt-a53|raspi3b) kfn=ktrace_kcall_entry_full ;; *) kfn=kcall_dispatch_traced ;; esac
    d=$(awk -v f=$kfn '$1 == "@@E" && $2 == f { print $3 }' "$tmp/$image.d")
    check "fbt::$kfn:entry $d equals kercall:::entry $k ($nfun functions fired)" \
        '[ -n "$k" ] && [ "$k" = "$d" ] && [ "$nfun" -gt 50 ]'
    awk '$1 == "@@E" { e[$2] = $3 } $1 == "@@R" { r[$2] = $3 }
         END { bad = 0
               for (f in e) if (f in r) { d = e[f] - r[f]; if (d > 2 || d < -2) {
                   printf "# %s: %d entries, %d returns\n", f, e[f], r[f]; bad = 1 } }
               exit bad }' "$tmp/$image.d"
    ok $? "every function's returns equal its entries, but for calls under way at the ends"
done
