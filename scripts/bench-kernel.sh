#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Kernel benchmarks on QEMU with -icount shift=0 (deterministic instruction counts): boots
# the kernel without trace hooks (baseline) and with them, prints both images' BENCH lines
# and the slowdowns: tracing compiled in but off, and on in fast and wide mode, and the cost
# added per recorded event.
#   scripts/bench-kernel.sh BUILD_DIR
. "$(dirname "$0")/script_help.sh" && script_help "$0" "${1:-}"
set -u
. "$(dirname "$0")/console.sh"  # BENCH lines as the programs' text (scripts/console.sh)
b=$1
# One CPU (QEMU_SMP=1): the figures compare with the other boards and earlier rounds;
# scripts/bench-smp.sh has the multiprocessor ones.
run() { QEMU_SMP=1 QEMU_ICOUNT=1 QEMU_TIMEOUT=600 con_run_text "$1" 2>&1; }
base=$(run "$b/kbench_notrace.elf") || { echo "$base" >&2; exit 1; }
traced=$(run "$b/kbench.elf") || { echo "$traced" >&2; exit 1; }
all=$(printf '%s\n%s\n' "$base" "$traced" | grep '^BENCH ')
printf '%s\n' "$all"
val() { printf '%s\n' "$all" | awk -v n="$1" '$2 == n { print $3 }'; }
for k in kcall_null context_switch msg_roundtrip; do
    b0=$(val "${k}_insns_notrace")
    for mode in "" _trace_fast _trace_wide; do
        v=$(val "${k}_insns$mode")
        [ -n "$b0" ] && [ -n "$v" ] || { echo "bench-kernel: missing ${k}_insns$mode" >&2; exit 1; }
        name=${mode#_}; name=${name:-trace_off}
        awk -v v="$v" -v b="$b0" -v n="${k}_slowdown_${name}_pct" \
            'BEGIN { printf "BENCH %s %.2f %%\n", n, (v - b) * 100.0 / b }'
    done
done
# x86-pc: what handing the x87/SSE unit over adds to a switch (lazy: one #NM trap, FXSAVE and
# FXRSTOR; kernel/arch/x86/fpu.c), when both threads use it between switches.
f=$(val context_switch_fpu_insns_notrace) s=$(val context_switch_insns_notrace)
[ -n "$f" ] && [ -n "$s" ] && awk -v f="$f" -v s="$s" \
    'BEGIN { printf "BENCH x86_fpu_switch_added_insns %d insns\n", f - s - 2 }'
# Instructions tracing adds per recorded event (fast mode): (traced - uninstrumented) divided
# by the events one operation records (kbench counts them with KTRACE_QUERYEVENTS).
for k in kcall_null:null context_switch:switch msg_roundtrip:roundtrip; do
    v=$(val "${k%%:*}_insns_trace_fast") b0=$(val "${k%%:*}_insns_notrace")
    e=$(val "${k%%:*}_events_per_op")
    [ -n "$v" ] && [ -n "$b0" ] && [ -n "$e" ] || { echo "bench-kernel: missing ${k%%:*} events" >&2; exit 1; }
    awk -v v="$v" -v b="$b0" -v e="$e" -v n="trace_added_per_event_${k#*:}_insns" \
        'BEGIN { if (e <= 0) exit 1; printf "BENCH %s %.0f insns\n", n, (v - b) / e }' ||
        { echo "bench-kernel: no events recorded by ${k%%:*}" >&2; exit 1; }
done
