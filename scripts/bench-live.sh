#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make bench: the live view's figures (docs/live.md, docs/PERFORMANCE.md "Live").
#   live_event_to_screen_{median,max}_ms: livemark (user/apps/livemark) prints a console line and
#     runs at the same moment, 8 times; its trace streams live (QEMU_STREAM, the tracelogger's
#     default flush interval, 100 ms) to kevtop --json with frames of 1 s (-d 1). The host
#     stamps each console line as it arrives and each kevtop frame as it is printed: a mark's
#     latency is from its line to the first frame that shows livemark running after it. QEMU
#     runs on the host's clock (no -icount): the figure means something on an idle host only.
#   live_reader_{framed,raw}_events_per_cpu_s: kevcapture -o /dev/null over a kevgen trace of
#     10 million events, framed as the tracelogger sends it and as a growing .kev: events per
#     second of its CPU time (median of 3; the build machine is shared, its wall clock is not).
#   live_reader_insns_per_event: callgrind's instructions per event of the same over 300,000
#     events (framed), as the converters are counted.
#   kevtop_cpu_pct_at_100k: kevtop -b's CPU time over its wall time while a stream of 100,000
#     events a second (kev_stream.py --pace) arrives for 10 s.
#   scripts/bench-live.sh BUILD_DIR HOST_DIR
. "$(dirname "$0")/script_help.sh" && script_help "$0" "${1:-}"
set -u
b=$1
h=$2
here=$(cd "$(dirname "$0")" && pwd)
tools=$here/../test/tools
dir=$b/bench-live
rm -rf "$dir" && mkdir -p "$dir"
stamp() { python3 -u -c 'import sys, time
for l in sys.stdin:
    print("%.4f %s" % (time.monotonic(), l), end="")'; }

# ---- event to screen ----------------------------------------------------------------------------
mkfifo "$dir/live.fifo"
QEMU_STREAM=fifo:$dir/live.fifo QEMU_ARGS="tracelogger -d1 -u" QEMU_TIMEOUT=120 \
    "$here/qemu-run.sh" "$b/livemark.elf" 2>&1 | stamp >"$dir/console.stamped" &
"$h/kevtop" --json -d 1 "$dir/live.fifo" 2>"$dir/kevtop.err" | stamp >"$dir/frames.stamped"
wait
python3 "$here/live_latency.py" live "$dir/console.stamped" "$dir/frames.stamped"

# ---- the live reader's rate -----------------------------------------------------------------------
"$h/kevgen" -n 10000000 -k 64 -d 10000 -o "$dir/big.kev" >/dev/null
python3 "$tools/kev_stream.py" "$dir/big.kev" "$dir/big.stream" >/dev/null
events=$("$h/traceprinter" "$dir/big.kev" 2>/dev/null | sed -n 's/^events: \([0-9]*\) in .*/\1/p')
rate() { # rate INPUT: kevcapture's events per second of its CPU time (user and system, wait4),
         # the median of 3 runs: the build machine's other work does not count
    python3 - "$h/kevcapture" "$1" "$events" <<'PY'
import os, subprocess, sys
rates = []
for _ in range(3):
    p = subprocess.Popen([sys.argv[1], "-q", "-o", "/dev/null", sys.argv[2]])
    _, st, ru = os.wait4(p.pid, 0)
    if st:
        sys.exit(1)
    rates.append(int(sys.argv[3]) / (ru.ru_utime + ru.ru_stime))
rates.sort()
print("# kevcapture %s: %s events/s of CPU" % (os.path.basename(sys.argv[2]),
      " ".join("%.0f" % r for r in rates)), file=sys.stderr)
print("%.0f" % rates[1])
PY
}
printf 'BENCH live_reader_framed_events_per_cpu_s %s events/s\n' "$(rate "$dir/big.stream")"
printf 'BENCH live_reader_raw_events_per_cpu_s %s events/s\n' "$(rate "$dir/big.kev")"
rm -f "$dir/big.kev" "$dir/big.stream"

"$h/kevgen" -n 300000 -k 64 -d 10000 -o "$dir/small.kev" >/dev/null
python3 "$tools/kev_stream.py" "$dir/small.kev" "$dir/small.stream" >/dev/null
small=$("$h/traceprinter" "$dir/small.kev" 2>/dev/null | sed -n 's/^events: \([0-9]*\) in .*/\1/p')
valgrind --tool=callgrind --callgrind-out-file="$dir/cg.out" \
    "$h/kevcapture" -q -o /dev/null "$dir/small.stream" 2>"$dir/cg.log"
ir=$(sed -n 's/^summary: \([0-9]*\).*/\1/p' "$dir/cg.out")
printf 'BENCH live_reader_insns_per_event %s insns\n' "$(( ir / small ))"

# ---- kevtop at 100,000 events a second --------------------------------------------------------------
"$h/kevgen" -n 1000000 -o "$dir/top.kev" >/dev/null
# 16 bytes an event and the frames' 12 in 1036: 1.62 MB a second, in 64 KiB pieces
python3 - "$h/kevtop" "$tools/kev_stream.py" "$dir" <<'PY'
import os, subprocess, sys, time
top, ks, d = sys.argv[1], sys.argv[2], sys.argv[3]
fifo = os.path.join(d, "top.fifo")
os.mkfifo(fifo)
size = os.path.getsize(os.path.join(d, "top.kev"))
gap = 65536 / (size * 1036 / 1024 / 10.0)        # 10 s for the whole stream
w = subprocess.Popen(["python3", ks, os.path.join(d, "top.kev"), fifo, "--pace",
                      "65536:%.4f" % gap], stdout=subprocess.DEVNULL)
t0 = time.monotonic()
p = subprocess.Popen([top, "-b", fifo], stdout=subprocess.DEVNULL)
_, status, ru = os.wait4(p.pid, 0)
wall = time.monotonic() - t0
w.wait()
cpu = ru.ru_utime + ru.ru_stime
print("# kevtop: %.3f s of CPU in %.3f s" % (cpu, wall), file=sys.stderr)
print("BENCH kevtop_cpu_pct_at_100k %.2f %%" % (100.0 * cpu / wall))
PY
