#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make bench: the probe path's figures (docs/probe-path.md, docs/PERFORMANCE.md).
#   probe_board_insns_per_event: the demo (3 s) in QEMU's exact mode under make live's probe
#     path (tracelogger -x probe, kevprobe over the guest RAM QEMU shares, the VM never halted):
#     what the board did for the reader beyond recording, over the events of the trace it
#     wrote: the tracelogger's CPU time inside the trace (kevstat's tracelogger/main row; none
#     when it never ran there) plus the kernel's own for the reader, which the logger says at
#     the end (the flushes its tick served and the buffer starts they caused, and on a core with
#     a data cache its cleans for the reader: their time on the board's clock,
#     KTRACE_PROBE_WORK), both in instructions by the capture's -icount shift.
#     Recording itself (the hooks, each buffer's own start) is not in it, nor the traced tick's
#     look at the flush request word, which every capture's tick makes (kbench's
#     trace_probe_tick_insns, docs/probe-path.md). One CPU (QEMU_SMP=1, as kbench's figures):
#     under the instruction count QEMU runs several virtual CPUs in turn, and a span of one
#     CPU's work timed on the board's clock then holds the others' instructions as well (the
#     same flushes on qemu-virt-a53's 4 CPUs read 25 to 100 times longer).
#   probe_board_cpu_pct: the same work's share of the trace's span.
#   probe_board_logger_insns_per_event, probe_board_kernel_insns_per_event: its two parts.
#   probe_reader_cpu_pct: kevprobe's host CPU time (user and system) over its run's length,
#     reading every 20 ms (the VM never halted: the halting reader's halt is gone).
#   probe_flushes_per_s: flush requests the kernel served, per second of the trace.
#   probe_event_to_screen_{median,max}_ms: livemark (as scripts/bench-live.sh) on the probe
#     path as make live runs it: a console line to the first kevtop --json frame (its default
#     span) that shows livemark running after it (QEMU on the host's clock, QEMU_ICOUNT=none as
#     make live's probe path: meaningful on an idle host only).
#   scripts/bench-probe.sh BUILD_DIR HOST_DIR
. "$(dirname "$0")/script_help.sh" && script_help "$0" "${1:-}"
set -u
b=$1
h=$2
here=$(cd "$(dirname "$0")" && pwd)
dir=$b/bench-probe
rm -rf "$dir" && mkdir -p "$dir"
gdbdir=$(mktemp -d)     # the guest RAM files
trap 'rm -rf "$gdbdir"' EXIT
stamp() { python3 -u -c 'import sys, time
for l in sys.stdin:
    print("%.4f %s" % (time.monotonic(), l), end="")'; }

# ---- the board's work --------------------------------------------------------------------------
base=$(sed -n 's/^BOARD_SHARED_RAM *:= *\(0x[0-9a-fA-F]*\).*/\1/p' "$here/../boards/${BOARD:-mps2-an385}/board.mk")
QEMU_SMP=1 QEMU_ICOUNT=exact QEMU_TIMEOUT=120 QEMU_SHARED_RAM=$gdbdir/demo.ram QEMU_ARGS="init loop=3 idle=100 ;; tracelogger -d1 -x probe" \
    "$here/qemu-run.sh" "$b/demo.elf" >"$dir/demo.console" 2>&1 &
q=$!
t0=$(date +%s.%N)
TIMEFORMAT='%U %S'
{ time "$h/kevprobe" -w 60 -p $q -e "$b/demo.elf" -o "$dir/demo.kev" "file:$gdbdir/demo.ram@$base" \
    2>"$dir/kevprobe.log"; } 2>"$dir/kevprobe.time"
prc=$?
t1=$(date +%s.%N)
echo "wall $t0 $t1" >>"$dir/kevprobe.time"
wait $q
"$h/kevstat" "$dir/demo.kev" >"$dir/kevstat.txt" 2>&1
python3 - "$dir/kevstat.txt" "$dir/kevprobe.log" "$prc" "$dir/kevprobe.time" "$dir/demo.console" <<'PY'
import re, sys
st, pr = open(sys.argv[1]).read(), open(sys.argv[2]).read()
con = open(sys.argv[5], errors="replace").read()
tm = open(sys.argv[4]).read().split()
m = re.search(r"^(\d+) events, (\d+) lost", st, re.M)
shift = re.search(r"-icount shift=(\d+)", st)
span = re.search(r"trace span ([\d.]+) ms", st)
# (no row: the logger never ran inside the trace)
lg = re.search(r"^\s+tracelogger/main\s+([\d.]+)\s", st, re.M)
kw = re.search(r"the kernel served the reader (\d+) flushes in (\d+) us.* cleaned its data "
               r"cache for it (\d+) times in (\d+) us", con)
hp = re.search(r"(\d+) rounds, (\d+) halts, \d+ torn reads retried, (\d+) flushes", pr)
if sys.argv[3] != "0" or not (m and shift and span and kw and hp):
    print("bench-probe: the probe capture failed:\n" + pr + con[-2000:], file=sys.stderr)
    sys.exit(1)
events, span_ms = int(m.group(1)), float(span.group(1))
lg_us, k_us = float(lg.group(1)) if lg else 0.0, float(kw.group(2)) + float(kw.group(4))
ns = 1 << int(shift.group(1))       # exact mode: 2^shift ns an instruction
print("# %d events; tracelogger %.1f us (%.0f instructions), the kernel's %s flushes and %s "
      "cache cleans %.0f us (%.0f instructions); %s rounds, %s flushes asked" % (events, lg_us,
      lg_us * 1000 / ns, kw.group(1), kw.group(3), k_us, k_us * 1000 / ns, hp.group(1),
      hp.group(3)), file=sys.stderr)
print("BENCH probe_board_insns_per_event %.2f insns" % ((lg_us + k_us) * 1000 / ns / events))
print("BENCH probe_board_logger_insns_per_event %.2f insns" % (lg_us * 1000 / ns / events))
print("BENCH probe_board_kernel_insns_per_event %.2f insns" % (k_us * 1000 / ns / events))
print("BENCH probe_board_cpu_pct %.3f %%" % (100 * (lg_us + k_us) / 1000 / span_ms))
cpu, wall = float(tm[0]) + float(tm[1]), float(tm[4]) - float(tm[3])
print("# kevprobe: %s rounds, %s halts, %.2f s of host CPU in %.1f s" % (hp.group(1), hp.group(2),
      cpu, wall), file=sys.stderr)
print("BENCH probe_reader_cpu_pct %.2f %%" % (100 * cpu / wall))
print("BENCH probe_flushes_per_s %.1f /s" % (int(hp.group(3)) / (span_ms / 1000)))
PY
[ $? = 0 ] || exit 1

# ---- event to screen -----------------------------------------------------------------------------
mkfifo "$dir/live.fifo"
QEMU_ICOUNT=none QEMU_ARGS="tracelogger -d1 -x probe" QEMU_TIMEOUT=120 QEMU_SHARED_RAM=$gdbdir/live.ram \
    "$here/qemu-run.sh" "$b/livemark.elf" 2>&1 | stamp >"$dir/console.stamped" &
"$h/kevprobe" -w 60 -t -e "$b/livemark.elf" -o - "file:$gdbdir/live.ram@$base" >"$dir/live.fifo" 2>"$dir/kevprobe-live.log" &
"$h/kevtop" --json "$dir/live.fifo" 2>"$dir/kevtop.err" | stamp >"$dir/frames.stamped"
wait
python3 "$here/live_latency.py" probe "$dir/console.stamped" "$dir/frames.stamped"
