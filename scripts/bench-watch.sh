#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make bench: what watching costs the board (docs/dtrace-target.md, "What watching costs";
# docs/live.md, "A reader that falls behind"), in QEMU's -icount shift=0 (an instruction a
# nanosecond), one CPU:
#   d_begin_added_insns_{null,switch,roundtrip,tick}: kbench's null call, context switch,
#     message round trip and tick interrupt (kcall_null_insns ... tick_interrupt_insns) under
#     the board's dtrace with a BEGIN-only program (the kbench_dtrace image, dtrace -q -c
#     kbench), less the same figures without dtrace (the kbench image): 0 when a loaded program
#     that enables no probe costs nothing on the kernel's paths. The consumer reads at most once
#     an hour here (-x switchrate=1hour): its reads' timer still expires now and then in the
#     tick spans kbench times (its first waits are 1 ms and double), which is the consumer's
#     cost, not the hooks'
#   d_begin_added_insns_*_trace_fast: the same with tracing on (every class, fast mode)
#   paused_reader_lost_ms_per_s: the board's time a reader that is paused or gone costs it a
#     second, beyond recording the same events: (kbench's trace_drop_full_insns, an event
#     dropped with every buffer full, less trace_simple_event_insns, one recorded) times the
#     event rate of deadline (user/apps/deadline, the periodic program the live tests run),
#     from its capture's events over its span, in ms of the board's instructions a second
#   scripts/bench-watch.sh BUILD_DIR HOST_DIR
. "$(dirname "$0")/script_help.sh" && script_help "$0" "${1:-}"
set -u
. "$(dirname "$0")/console.sh"
b=$1
h=$2
here=$(cd "$(dirname "$0")" && pwd)
run() { QEMU_SMP=1 QEMU_ICOUNT=1 QEMU_TIMEOUT=900 con_run_text "$@" 2>&1; }
val() { awk -v n="$1" '$1 == "BENCH" && $2 == n { print $3; exit }'; }
plain=$(run "$b/kbench.elf") || { echo "$plain" >&2; exit 1; }
loaded=$(QEMU_ARGS="dtrace -q -x switchrate=1hour -c kbench -n 'BEGIN { }'" run "$b/kbench_dtrace.elf") ||
    { echo "$loaded" >&2; exit 1; }
for mode in "" _trace_fast; do
    for k in kcall_null:null context_switch:switch msg_roundtrip:roundtrip tick_interrupt:tick; do
        a=$(printf '%s\n' "$plain" | val "${k%%:*}_insns$mode")
        d=$(printf '%s\n' "$loaded" | val "${k%%:*}_insns$mode")
        [ -n "$a" ] && [ -n "$d" ] || { echo "bench-watch: no ${k%%:*}_insns$mode" >&2; exit 1; }
        echo "BENCH d_begin_added_insns_${k#*:}$mode $((d - a)) insns"
    done
done
drop=$(printf '%s\n' "$plain" | val trace_drop_full_insns)
rec=$(printf '%s\n' "$plain" | val trace_simple_event_insns)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
QEMU_ICOUNT=exact QEMU_TIMEOUT=300 QEMU_ARGS="appinit deadline ;; tracelogger -d1 -f $tmp/d.kev" \
    "$here/qemu-run.sh" "$b/deadlines.elf" > "$tmp/run.log" 2>&1 ||
    { tail -5 "$tmp/run.log" >&2; exit 1; }
rate=$("$h/kevstat" --json "$tmp/d.kev" 2>/dev/null | python3 -c 'import json, sys
t = json.load(sys.stdin)["trace"]
print("%.0f" % (t["events"] * t["cycles_per_sec"] / (t["last"] - t["first"])))' 2>/dev/null)
[ -n "$drop" ] && [ -n "$rec" ] && [ -n "$rate" ] ||
    { echo "bench-watch: no drop ($drop) or event ($rec) cost, or no rate ($rate)" >&2; exit 1; }
echo "BENCH deadline_events_per_s $rate events/s"
awk -v d="$drop" -v r="$rec" -v n="$rate" \
    'BEGIN { printf "BENCH paused_reader_lost_ms_per_s %.2f ms\n", (d - r) * n / 1e6 }'
