#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Post-mortem capture (TAP): flight.elf's `hang` starts the tracelogger in ring mode (a flight
# recorder: the kernel wraps without it), inserts N user events with payloads 1..N and hangs
# the system. kevdump then reads the ring from the halted target through QEMU's gdbstub and
# writes a .kev. The oracles: the events the program inserted (the last payload is N, the
# dump's payloads run without a gap, and the events in the file plus the loss the kernel
# counted make N), and every host tool reading the file (traceprinter, kevstat, dtrace -i,
# kevreport).
#   BOARD=<board> test/qemu/test_flight.sh BUILD_DIR HOST_DIR
set -u
b=$1
h=$2
out=$b/test-flight
rm -rf "$out" && mkdir -p "$out"
. "$(dirname "$0")/flight_lib.sh"
. "$(dirname "$0")/tap_lib.sh"
N=50000
echo "1..13"

flight_boot "tracelogger -d1 -r ;; hang events=$N" 'hang: [0-9]* user events inserted; hanging now'
check "the program inserted its $N events and hung the system" \
    "grep -q 'hang: $N user events inserted; hanging now' $out/run.log"
sleep 1     # hung for good: the ring stays as it is
flight_dump
check "kevdump reads the ring through QEMU's gdbstub (map at 0x$map)" "[ $? = 0 ] && [ -s $out/dump.kev ]"
"$h/traceprinter" "$out/dump.kev" >"$out/dump.first.txt" 2>/dev/null
"$h/kevdump" -g "unix:$out/gdb.sock" -a 0x4 -o "$out/bad.kev" >"$out/bad.log" 2>&1
check "kevdump pointed at no map says so and exits 1 (no file)" \
    "[ $? = 1 ] && grep -q 'no valid flight-recorder map at 0x4' $out/bad.log && [ ! -e $out/bad.kev ]"
# A CPU halted inside an event write: its write pointer holds the busy mark (its own struct
# trace_cpu's address, docs/smp.md "The trace on several CPUs"), so where its open buffer's
# events end is not known. gdb puts the mark there on the CPU that wrote the program's last
# event (as a halt in a hook's few instructions leaves it); kevdump must say which CPU's buffer
# it leaves out and count that buffer's events lost: the dump's events plus its loss still
# make N.
mcpu=$(sed -n 's/.* CPU:0*\([0-9][0-9]*\) USREVENT:EVENT:1 .*/\1/p' "$out/dump.first.txt" 2>/dev/null | tail -1)
gdb-multiarch -batch -nx -ex "target remote $out/gdb.sock" \
    -ex "set var ktrace.tr_cpu[${mcpu:-0}].tc_wp = (struct kev_slot *)&ktrace.tr_cpu[${mcpu:-0}]" \
    -ex detach "$b/flight.elf" >"$out/gdb.log" 2>&1
cp "$out/dump.kev" "$out/dump.first.kev"
flight_dump
busy_rc=$?
mv "$out/dump.kev" "$out/dump.busy.kev" && mv "$out/dump.first.kev" "$out/dump.kev"
kill $qpid 2>/dev/null
wait $qpid 2>/dev/null

"$h/traceprinter" "$out/dump.kev" >"$out/dump.txt" 2>"$out/tp.err"
check "traceprinter reads the dump" "[ $? = 0 ]"
flight_payloads
check "the last event in the dump is the program's last ($last = $N)" "[ $last = $N ]"
check "the dump's events run without a gap ($first..$last, $count events)" \
    "[ $count = $((last - first + 1)) ]"
check "events in the dump plus the kernel's count of lost ones make $N ($events + $lost)" \
    "[ -n '$events' ] && [ $((events + $lost)) = $N ] && [ $lost = $((first - 1)) ]"
"$h/kevstat" "$out/dump.kev" >"$out/kevstat.txt" 2>&1
check "kevstat reads it and counts the same events and loss" \
    "grep -q '^$events events, $lost lost' $out/kevstat.txt"
"$h/dtrace" -q -i "$out/dump.kev" -n 'user:::event { @n = count(); }' >"$out/dtrace.txt" 2>&1
check "dtrace -i counts the dump's user events ($count)" "[ $? = 0 ] && grep -qE '^ +$count\$' $out/dtrace.txt"
"$h/kevreport" -o "$out/dump.html" "$out/dump.kev" >"$out/kevreport.log" 2>&1
check "kevreport draws it" "[ $? = 0 ] && [ -s $out/dump.html ]"

# The dump of the CPU halted inside an event write (above).
sed 's/^/# /' "$out/kevdump.log"
check "kevdump says CPU ${mcpu:-0} was halted inside an event write and leaves its open buffer out" \
    "[ $busy_rc = 0 ] && grep -q 'kevdump: CPU ${mcpu:-0} was halted inside an event write (its write pointer holds the busy mark): its open buffer (buffer [0-9]*, seq [0-9]*, about [0-9]* slots, [1-9][0-9]* events) is left out' $out/kevdump.log"
events1=$events lost1=$lost last1=$last
"$h/traceprinter" "$out/dump.busy.kev" >"$out/dump.txt" 2>/dev/null
flight_payloads
check "the buffer's events are gone from the dump ($events < $events1) and counted lost ($lost > $lost1)" \
    "[ -n '$events' ] && [ $events -lt $events1 ] && [ $lost -gt $lost1 ] && [ $last -lt $last1 ]"
check "events in the dump plus the kernel's loss and the buffer's make $N ($events + $lost), no gap" \
    "[ $((events + lost)) = $N ] && [ $count = $((last - first + 1)) ] && [ $lost = $((first - 1 + N - last)) ]"
