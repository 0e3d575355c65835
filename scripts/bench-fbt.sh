#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The fbt provider's figures (docs/fbt.md, docs/PERFORMANCE.md), QEMU -icount shift=0 (one
# instruction a nanosecond), one CPU:
#   fbt_disabled_added_insns_{null,switch,roundtrip}  kbench on the kernel with fbt built in
#       and its table linked, no probe enabled, less the same on the kernel built without it
#   fbt_probes_listed        the probes `dtrace -l -P fbt` lists for the board's dtrace image
#   fbt_enable_all_us        the board's dtrace placing every fbt entry and return probe at
#       once (its "N fbt probe sites placed in T us": virtual microseconds, about a thousand
#       instructions each), and fbt_sites_placed the N
#   fbt_entry_count_insns    one firing of an enabled `fbt::kcall_dispatch*:entry { @ = count(); }`
#       (the trap, the lookup, the clause, the displaced instruction, the return), read off
#       kbench's own kcall_null_insns run under the board's dtrace (the kbench_dtrace image):
#       the figure with the clause less the figure with a program that enables nothing on the
#       path (BEGIN only); kercall_entry_count_insns the same for the clause on the static
#       probe kercall::Null:entry, the figure fbt's is held to (at most 2x)
#   scripts/bench-fbt.sh BUILD_DIR HOST_DIR
. "$(dirname "$0")/script_help.sh" && script_help "$0" "${1:-}"
set -u
. "$(dirname "$0")/console.sh"
b=$1 h=$2
# a board with no host files (x86-pc) compiles a D program from its command line
uart=0; grep -qs 'BOARD_TRACE_STORAGE *:= *uart' "boards/${BOARD:-}/board.mk" && uart=1
run() { QEMU_SMP=1 QEMU_ICOUNT=1 QEMU_TIMEOUT=600 con_run_text "$@" 2>&1; }
val() { awk -v n="$1" '$1 == "BENCH" && $2 == n { print $3; exit }'; }
fbt=$(run "$b/kbench.elf") || { echo "$fbt" >&2; exit 1; }
nofbt=$(run "$b/kbench_nofbt.elf") || { echo "$nofbt" >&2; exit 1; }
for k in kcall_null:null context_switch:switch msg_roundtrip:roundtrip; do
    a=$(printf '%s\n' "$fbt" | val "${k%%:*}_insns") c=$(printf '%s\n' "$nofbt" | val "${k%%:*}_insns")
    [ -n "$a" ] && [ -n "$c" ] || { echo "bench-fbt: no ${k%%:*}_insns" >&2; exit 1; }
    echo "BENCH fbt_disabled_added_insns_${k#*:} $((a - c)) insns"
done
if [ -f "$b/dtrace.elf" ]; then
    n=$("$h/dtrace" --kernel "$b/dtrace.elf" -l -P fbt | tail -n +2 | wc -l)
    echo "BENCH fbt_probes_listed $n probes"
    all='fbt:::entry, fbt:::return { @ = count(); }'
    tmp2=$(mktemp -d)
    if [ $uart = 1 ]; then
        out=$(QEMU_ARGS="dtrace -c init -n '$all'" run "$b/dtrace.elf")
    else
        "$h/dcompile" --kernel "$b/dtrace.elf" -n "$all" -o "$tmp2/all.dobj" || exit 1
        out=$(QEMU_ARGS="dtrace -c init $tmp2/all.dobj" run "$b/dtrace.elf")
    fi
    rm -rf "$tmp2"
    line=$(printf '%s\n' "$out" | grep -o '[0-9]* fbt probe sites placed in [0-9]* us' | head -1)
    [ -n "$line" ] || { echo "$out" >&2; exit 1; }
    echo "BENCH fbt_sites_placed $(echo "$line" | awk '{ print $1 }') sites"
    echo "BENCH fbt_enable_all_us $(echo "$line" | awk '{ print $(NF - 1) }') us"
fi
if [ -f "$b/kbench_dtrace.elf" ]; then
    tmp3=$(mktemp -d)
    null_under() {   # null_under NAME D-PROGRAM: kbench's kcall_null_insns with it enabled
        if [ $uart = 1 ]; then
            QEMU_ARGS="dtrace -q -c kbench -n '$2'" run "$b/kbench_dtrace.elf" | val kcall_null_insns
            return
        fi
        "$h/dcompile" --kernel "$b/kbench_dtrace.elf" -q -n "$2" -o "$tmp3/$1.dobj" || return 1
        QEMU_ARGS="dtrace -c kbench $tmp3/$1.dobj" run "$b/kbench_dtrace.elf" | val kcall_null_insns
    }
    base=$(null_under base 'BEGIN { n = 1; }')
    dyn=$(null_under fbt 'fbt::kcall_dispatch:entry, fbt::kcall_dispatch_traced:entry { @ = count(); }')
    sta=$(null_under static 'kercall::Null:entry { @ = count(); }')
    rm -rf "$tmp3"
    [ -n "$base" ] && [ -n "$dyn" ] && [ -n "$sta" ] || { echo "bench-fbt: kbench under dtrace gave no kcall_null_insns" >&2; exit 1; }
    echo "BENCH fbt_entry_count_insns $((dyn - base)) insns"
    echo "BENCH kercall_entry_count_insns $((sta - base)) insns"
fi
