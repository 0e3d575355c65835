#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The RTT transport (TAP): the demo's tracelogger writes its trace both to a host file through
# semihosting and, framed, into an RTT up-channel (-x rtt); kevrtt stands in for the debug
# probe, reading the control block through QEMU's gdbstub with m/M packets while the system
# runs and serving the bytes on a TCP port as OpenOCD's `rtt server` does; kevcapture rebuilds
# the .kev from that port. The oracle is the semihosted file of the same run: the two must be
# byte-identical. The control block is found by scanning the programs' RAM for its ID, and
# must be where the linker put `_SEGGER_RTT` (nm). Without a probe, -x rtt=skip drops whole
# buffers and counts them, in the logger's report and in the file's trailer.
#   BOARD=<board> test/qemu/test_rtt.sh BUILD_DIR HOST_DIR
set -u
b=$1
h=$2
out=$b/test-rtt
rm -rf "$out" && mkdir -p "$out"
here=$(dirname "$0")
run=$here/../../scripts/qemu-run.sh
board=${BOARD:-mps2-an385}
bdir=$here/../../boards/$board
. "$here/tap_lib.sh"
mk() { sed -n "s/^$1 *:= *\(0x[0-9a-fA-F]*\|[0-9]*\).*/\1/p" "$bdir/board.mk"; }

# Where programs' RAM is (board.mk): the range a user gives OpenOCD's `rtt setup`.
ram=$(mk APP_RAM_BASE) slot=$(mk APP_RAM_SLOT) slots=$(mk APP_MAX_SLOTS)
if [ -z "$ram" ] || [ -z "$slot" ] || [ -z "$slots" ]; then
    echo "Bail out! boards/$board/board.mk has no APP_RAM_BASE/APP_RAM_SLOT/APP_MAX_SLOTS"
    exit 1
fi
scan=$(printf '0x%x:0x%x' $((ram)) $((slot * slots)))
# The gdbstub on a UNIX socket and the RTT server on a port the system picks (kevrtt -l 0
# says which): this run's, never another test's.
gdb=$out/demo.gdb
rm -f "$gdb"
echo "1..10"

# ---- the demo, through RTT and through semihosting at once -----------------------------------
QEMU_ARGS="tracelogger -d1 -x rtt -f $out/demo.kev" QEMU_TIMEOUT=120 \
    "$run" "$b/demo.elf" -gdb "unix:$gdb,server=on,wait=off" >"$out/demo.log" 2>&1 &
qpid=$!
# (kevrtt retries its connection until QEMU's gdbstub listens.)
"$h/kevrtt" -g "unix:$gdb" -s "$scan" -l 0 2>"$out/kevrtt.log" &
rpid=$!
port=$(served_port "$out/kevrtt.log" kevrtt)
timeout 130 "$h/kevcapture" -o "$out/rtt.kev" "localhost:${port:-0}" >"$out/capture.log" 2>&1
crc=$?
wait $rpid; rrc=$?
wait $qpid; qrc=$?
check "the demo with the tracelogger on RTT exits 0" "[ $qrc = 0 ]"
# Every event the kernel generated is recorded or counted lost (netduinoplus2's two kernel
# buffers drop some while the logger waits for the probe: counted, not silent).
accounted() {
    sed -n 's#^[0-9]*/tracelogger: ##; s/^tracelogger: the kernel generated \([0-9,]*\) events: recorded \([0-9,]*\), dropped \([0-9,]*\), overwritten \([0-9,]*\)$/\1 \2 \3 \4/p' "$1" |
        tr -d , | { read -r g r d o && [ -n "$g" ] && [ $((r + d + o)) = "$g" ]; }
}
check "the tracelogger wrote to the file and RTT, every event recorded or counted lost" \
    "grep -q 'written to the file and RTT' $out/demo.log && accounted $out/demo.log"
check "kevrtt read the stream until the target ended" "[ $rrc = 0 ]"
check "kevcapture rebuilt a complete stream from the TCP port" "[ $crc = 0 ]"
check "the RTT copy is byte-identical to the semihosted file of the same run" \
    "[ -s $out/demo.kev ] && cmp -s $out/demo.kev $out/rtt.kev"
cb=$(sed -n 's/^kevrtt: RTT control block at 0x\([0-9a-f]*\)$/\1/p' "$out/kevrtt.log")
sym=$(nm "$b/demo/tracelogger.elf" 2>/dev/null | sed -n 's/^0*\([0-9a-f]*\) [BbDd] _SEGGER_RTT$/\1/p')
check "the control block found by scanning is the linker's _SEGGER_RTT (0x$cb = 0x$sym)" \
    "[ -n '$cb' ] && [ '$cb' = '$sym' ]"

# ---- no probe: skip mode drops whole buffers, and counts them -------------------------------
# A probe that never reads: the logger waits for it 50 ms, then drops every buffer that does
# not fit the ring whole, from the file too (every sink keeps the same bytes), and counts them.
QEMU_ARGS="tracelogger -d1 -x rtt=skip -f $out/skip.kev" QEMU_TIMEOUT=120 \
    "$run" "$b/demo.elf" >"$out/skip.log" 2>&1
"$h/traceprinter" "$out/skip.kev" >"$out/skip.txt" 2>&1
tprc=$?
refused=$(sed -n 's/^[0-9]*\/tracelogger: tracelogger: the stream.s host did not take [0-9]* buffers (\([0-9,]*\) events).*/\1/p' "$out/skip.log" | tr -d ,)
kq=$(sed -n 's#^[0-9]*/tracelogger: ##; s/^tracelogger: the kernel generated \([0-9,]*\) events: recorded [0-9,]*, dropped \([0-9,]*\), overwritten \([0-9,]*\)$/\1 \2 \3/p' "$out/skip.log" | tr -d ,)
read -r gen kdrop kover <<<"${kq:-0 0 0}"
fev=$(sed -n 's/^events: \([0-9]*\) in .*/\1/p' "$out/skip.txt")
flost=$(sed -n 's/^lost events: \([0-9]*\).*/\1/p' "$out/skip.txt")
check "without a probe, the logger drops buffers whole and says so, and the file is whole" \
    "[ -n '$refused' ] && [ '${refused:-0}' -gt 0 ] && accounted $out/skip.log &&
     grep -q 'init: demo system done, 0 failures' $out/skip.log && [ $tprc = 0 ]"
# The truth: the kernel's own counts. What the file holds plus what its trailer says was lost
# is every event generated, and its loss is the logger's dropped buffers plus the kernel's.
check "the file's loss (${flost:-?}) is the dropped buffers' ${refused:-?} events plus the kernel's $((kdrop + kover)); with its ${fev:-?} events, the $gen generated" \
    "[ -n '$flost' ] && [ '$flost' = \$(( ${refused:-0} + kdrop + kover )) ] && [ \$(( ${fev:-0} + ${flost:-0} )) = '$gen' ]"

# ---- block mode and no probe: the logger waits for ever; the run is reported hung -----------
# (scripts/qemu-watch.sh: no console output and no trace progress for QEMU_HANG seconds.)
t0=$(date +%s)
QEMU_HANG=5 QEMU_ARGS="tracelogger -d1 -x rtt -f $out/hang.kev" QEMU_TIMEOUT=120 \
    "$run" "$b/demo.elf" >"$out/hang.log" 2>&1
hrc=$?
t1=$(date +%s)
check "a run whose logger waits for a missing probe fails (status $hrc)" "[ $hrc != 0 ]"
check "and is reported hung within seconds, not after its 120 s timeout ($((t1 - t0)) s)" \
    "grep -q 'hung: no console output and no trace progress for 5s' $out/hang.log && [ $((t1 - t0)) -lt 60 ]"
