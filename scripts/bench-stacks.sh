#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What stacks cost at a profile tick (docs/PERFORMANCE.md "Stacks"), on QEMU with -icount
# shift=0 (one instruction a nanosecond), one CPU. user/apps/stackbench spins a fixed amount
# of work under a 7-frame user stack, booted three times under the board's dtrace:
#   BEGIN { }                                   its spin alone, and (stackbench sample) the
#                                               cost of one STACK sample in a capture
#   profile-997 { @ = count(); }                the spin with a profile firing a tick
#   profile-997 { @[ustack()] = count(); }      the same keyed by the user stack
# A firing's cost is the spin's growth over the firings the program counted (the board's own
# aggregation), per spin. Prints, with _<cpu> after each name (m3, a53):
#   BENCH stack_sample_insns        one stack sample recorded in a capture (tracelogger -p)
#   BENCH d_profile_count_insns     a profile-997 firing of @ = count()
#   BENCH d_profile_ustack_count_insns  a profile-997 firing of @[ustack()] = count()
#   BENCH d_ustack_insns            the difference: ustack( ) itself, walk and interning
#   BENCH profile_timer_firing_insns  one firing of the profile timer (kernel/kprof.c) whose
#                                   clause's predicate is false: the interrupt's entry and exit,
#                                   the schedules, the predicate and the timer armed again
#                                   (a fourth boot, profile-997 /execname == "nobody"/; its
#                                   firings the spin's time at 997 Hz)
#   scripts/bench-stacks.sh BUILD_DIR...     (each build/<board>, its board from the name)
. "$(dirname "$0")/script_help.sh" && script_help "$0" "${1:-}"
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/console.sh"
H=${H:-$here/../build/host}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
P='profile-997 /execname == "stackbench"/'
"$H/dcompile" -n 'BEGIN { }' -o "$tmp/none.dobj" &&
    "$H/dcompile" -n "$P { @ = count(); }" -o "$tmp/count.dobj" &&
    "$H/dcompile" -n "$P { @[ustack()] = count(); }" -o "$tmp/ustack.dobj" &&
    "$H/dcompile" -n 'profile-997 /execname == "nobody"/ { }' -o "$tmp/idle.dobj" || exit 1
rc=0
for b in "$@"; do
    board=$(basename "$b")
    case $board in mps2-an385) sfx=m3 ;; qemu-virt-a53) sfx=a53 ;; *) sfx=$board ;; esac
    boot() { # boot DOBJ ARG: the run's text
        BOARD=$board QEMU_SMP=1 QEMU_ICOUNT=1 QEMU_TIMEOUT=600 \
            QEMU_ARGS="dtrace -c stackbench $tmp/$1.dobj ;; stackbench $2" con_run_text "$b/stackbench.elf" 2>&1
    }
    spin() { awk '$1 == "BENCH" && $2 == "stackbench_spin_insns" { print $3 }'; }
    fired() { awk '/^ +[0-9]+$/ { s += $1 } END { print s + 0 }'; }
    none=$(boot none sample) count=$(boot count spin) ustack=$(boot ustack spin)
    idle=$(boot idle spin)
    s0=$(spin <<< "$none") s1=$(spin <<< "$count") s2=$(spin <<< "$ustack") s3=$(spin <<< "$idle")
    f1=$(fired <<< "$count") f2=$(fired <<< "$ustack")
    sample=$(awk '$1 == "BENCH" && $2 == "stack_sample_insns" { print $3 }' <<< "$none")
    if [ -z "$s0" ] || [ -z "$s1" ] || [ -z "$s2" ] || [ -z "$s3" ] || [ "${f1:-0}" = 0 ] || [ "${f2:-0}" = 0 ] || [ -z "$sample" ]; then
        echo "bench-stacks: $board: a boot gave no figure" >&2
        printf '%s\n' "$none" "$count" "$ustack" | tail -20 >&2
        rc=1
        continue
    fi
    echo "BENCH stack_sample_insns_$sfx $sample insns"
    # stackbench spins 5 times: the firings of one spin are a fifth of those counted
    awk -v s0="$s0" -v s1="$s1" -v s2="$s2" -v s3="$s3" -v f1="$f1" -v f2="$f2" -v x="$sfx" 'BEGIN {
        c = (s1 - s0) * 5 / f1; u = (s2 - s0) * 5 / f2
        printf "BENCH d_profile_count_insns_%s %.0f insns\n", x, c
        printf "BENCH d_profile_ustack_count_insns_%s %.0f insns\n", x, u
        printf "BENCH d_ustack_insns_%s %.0f insns\n", x, u - c
        printf "BENCH profile_timer_firing_insns_%s %.0f insns\n", x, (s3 - s0) / (s3 * 997 / 1e9) }'
done
exit $rc
