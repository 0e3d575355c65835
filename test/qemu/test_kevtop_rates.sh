#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# kevtop's interrupts a second are per second of trace time: a frame counts the interrupts that
# entered in it, not the records the model completes there (a record waits for the thread that
# handles its interrupt). The demo under QEMU_ICOUNT=exact, so the programmed rates hold in
# trace time: the tick at 1,000 Hz (10 in every 10 ms frame) and the driver's device timer at
# 500 Hz (2 ms apart, at most 5 a frame while it runs). The truths: those rates, and
# traceprinter's INT_ENTR lines in each of kevtop's frames (by its printed bounds).
#   BOARD=<board> test/qemu/test_kevtop_rates.sh BUILD_DIR HOST_DIR
set -u
b=$1
h=$2
out=$b/test-kevtop-rates
rm -rf "$out" && mkdir -p "$out"
here=$(dirname "$0")
. "$here/tap_lib.sh"
echo "1..3"

# (streamed as make live streams it, its flush interval on: there some interrupts' records
# complete frames after their entry)
QEMU_ICOUNT=exact QEMU_ARGS="init loop=2 idle=100 ;; tracelogger -d1 -u -f $out/demo.kev" \
    QEMU_UART1=$out/demo.uart QEMU_TIMEOUT=90 \
    "$here/../../scripts/qemu-run.sh" "$b/demo.elf" >"$out/console.log" 2>&1
check "the demo ran to its end with its capture" \
    "grep -q 'demo system done, 0 failures' '$out/console.log' && [ -s '$out/demo.kev' ]"
"${KEVTOP:-$h/kevtop}" -b -d 0.01 "$out/demo.kev" >"$out/frames.top" 2>"$out/kevtop.err"
"$h/traceprinter" "$out/demo.kev" >"$out/tp.txt" 2>/dev/null
python3 - "$out/frames.top" "$out/tp.txt" >"$out/check.txt" <<'PY'
import re, sys
frames = []         # (t0, t1, kevtop's rate) of each whole 10 ms frame
for l in open(sys.argv[1]):
    m = re.match(r"kevtop: ([0-9.]+)-([0-9.]+) s of trace time \(([0-9.]+) s\)", l)
    if m:
        cur = (float(m.group(1)), float(m.group(2)), float(m.group(3)))
    m = re.match(r"interrupts: ([0-9]+)/s", l)
    if m and cur[2] > 0.0099:
        frames.append((cur[0], cur[1], int(m.group(1))))
cps, ints = 1, []
for l in open(sys.argv[2]):
    m = re.match(r"  TRACE_CYCLES_PER_SEC:: (\d+)", l)
    if m:
        cps = int(m.group(1))
    m = re.match(r"t:0x([0-9a-f]+) CPU:\d+ INT_ENTR:\S+ \((\d+)\)", l)
    if m:
        ints.append((int(m.group(1), 16), int(m.group(2))))
bad, ticks, dev_max, dev_frames = [], set(), 0, 0
for t0, t1, rate in frames:
    c0, c1 = round(t0 * cps), round(t1 * cps)
    lines = [irq for t, irq in ints if c0 <= t < c1]
    tick, dev = lines.count(256), len(lines) - lines.count(256)
    ticks.add(tick)
    dev_max = max(dev_max, dev)
    dev_frames += dev > 0
    if rate != len(lines) * 100:
        bad.append("%.2f-%.2f: kevtop %d/s, %d entered" % (t0, t1, rate, len(lines)))
print("frames %d ticks %s devmax %d devframes %d bad %d" % (len(frames), sorted(ticks), dev_max,
                                                        dev_frames, len(bad)))
for b in bad[:5]:
    print(b)
PY
read -r _ nf _ _ _ devmax _ devframes _ nbad <<<"$(head -1 "$out/check.txt" | tr -d '[],')"
check "the programmed rates in trace time: the tick 10 in each of $nf 10 ms frames, the device at most 5 (500 Hz, in $devframes frames)" \
    "head -1 '$out/check.txt' | grep -q 'ticks \[10\] devmax [1-5] ' && [ '${nf:-0}' -gt 50 ] && [ '${devframes:-0}' -gt 5 ]"
check "kevtop's interrupts a second in each frame are the entries traceprinter lists in it (${nbad:-?} frames differ; $(sed -n 2p "$out/check.txt"))" \
    "[ '${nbad:-1}' = 0 ] && [ '${nf:-0}' -gt 50 ]"
