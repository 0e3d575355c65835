#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# dtrace -i over a capture that holds its D program's stop but not its go: the board's dtrace
# traces around its run (-K) into a ring of 16 kernel buffers that wraps over the go (tracelogger
# -r: about half the run is overwritten). The replay runs from the capture's first event to the
# stop and fires the program's profile-N and tick-N at the board's timer runs (DTIMER, this
# program's by the stop's digest), and says what it assumed. The truth: the board's own output
# of the same script in the same boot (QEMU_ICOUNT=exact), its aggregations taken between two
# of acq's user events the capture holds (its 300th sample, code 300, and its stop, code 211),
# byte for byte. No execname in the predicates: the ring lost the snapshot that names threads.
# Then a capture with no DPROG event at all (no -K: appinit starts tracing for acq after the go
# and it stops before the stop): replayed whole, the same aggregations, and said.
#   test/qemu/test_dtrace_goless.sh BUILD_DIR HOST_DIR
set -u
B=$(cd "$1" && pwd); H=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/scripts/console.sh"
. "$here/test/qemu/tap_lib.sh"
img=$B/acqparity.elf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..7"

cat >"$tmp/w.d" <<'D'
#pragma D option quiet
user:::event /arg0 == 300 && arg1 == 300/ { on = 1; }
user:::event /arg0 == 211/ { on = 0; }
profile-997 /on/ { @p = count(); }
tick-10ms /on/ { @t = count(); }
kercall:::entry /on/ { @k = count(); }
END { printa("profile-997 %@d\n", @p); printa("tick-10ms %@d\n", @t); printa("calls %@d\n", @k); }
D
"$H/dcompile" --kernel "$img" -T acq -s "$tmp/w.d" -o "$tmp/w.dobj" >"$tmp/cc.err" 2>&1
QEMU_ICOUNT=exact QEMU_TIMEOUT=120 \
    QEMU_ARGS="dtrace -K -c appinit $tmp/w.dobj ;; appinit acq ;; tracelogger -d1 -r -k 16 -p 997 -f $tmp/r.kev" \
    "$here/scripts/qemu-run.sh" "$img" >"$tmp/run.out" 2>&1
con_of dtrace <"$tmp/run.out" | grep -vE '^kernel: |^dtrace: what the probes cost ' | grep . >"$tmp/live.out"
check "the board printed its aggregations ($(tr '\n' ' ' <"$tmp/live.out"))" \
    "grep -q '^profile-997 [1-9]' '$tmp/live.out' && grep -q '^tick-10ms [1-9]' '$tmp/live.out'"
"$H/traceprinter" "$tmp/r.kev" >"$tmp/tp.txt" 2>/dev/null
check "the capture holds the program's stop, its timer runs and acq's two events, not its go" \
    "grep -q 'DPROG .*(stop)' '$tmp/tp.txt' && ! grep -q 'DPROG .*(go)' '$tmp/tp.txt' &&
     grep -q 'DTIMER' '$tmp/tp.txt' && grep -q 'EVENT:300 .*d0:0x0000012c' '$tmp/tp.txt' &&
     grep -q 'EVENT:211 ' '$tmp/tp.txt'"
"$H/dtrace" -i "$tmp/r.kev" -s "$tmp/w.d" 2>"$tmp/cap.err" | grep . >"$tmp/cap.out"
check "dtrace -i over it: the board's aggregations byte for byte ($(tr '\n' ' ' <"$tmp/cap.out"))" \
    "[ -s '$tmp/live.out' ] && cmp -s '$tmp/live.out' '$tmp/cap.out'"
check "and it says what it assumed: the go not in the capture, the timers at the board's runs" \
    "grep -q 'holds its D program.s stop but not its go' '$tmp/cap.err' &&
     grep -q 'fire at the board.s timer runs' '$tmp/cap.err'"

# No -K: tracing begins after the go and ends before the stop.
QEMU_ICOUNT=exact QEMU_TIMEOUT=120 \
    QEMU_ARGS="dtrace -c appinit $tmp/w.dobj ;; appinit acq ;; tracelogger -d1 -p 997 -f $tmp/n.kev" \
    "$here/scripts/qemu-run.sh" "$img" >"$tmp/run2.out" 2>&1
con_of dtrace <"$tmp/run2.out" | grep -vE '^kernel: |^dtrace: what the probes cost ' | grep . >"$tmp/live2.out"
"$H/traceprinter" "$tmp/n.kev" >"$tmp/tp2.txt" 2>/dev/null
check "without -K the capture holds timer runs and no DPROG event" \
    "grep -q 'DTIMER' '$tmp/tp2.txt' && ! grep -q 'DPROG' '$tmp/tp2.txt'"
"$H/dtrace" -i "$tmp/n.kev" -s "$tmp/w.d" 2>"$tmp/cap2.err" | grep . >"$tmp/cap2.out"
check "dtrace -i over it: the board's aggregations byte for byte ($(tr '\n' ' ' <"$tmp/cap2.out"))" \
    "grep -q '^tick-10ms [1-9]' '$tmp/live2.out' && cmp -s '$tmp/live2.out' '$tmp/cap2.out'"
check "and it says the capture lies within the program's run" \
    "grep -q 'timer runs (DTIMER) but no DPROG event' '$tmp/cap2.err'"
