#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Post-mortem after a kernel fault (TAP): flight.elf's `hang ... crash` starts the tracelogger
# in ring mode (a flight recorder), inserts N user events with payloads 1..N, then makes the
# kernel fault for real (ThreadCtl KTCTL_KDEBUG_FAULT: kernel/kcrash.c, linked into this test
# image only, loads from an address nothing answers, in kernel mode). The panic path writes
# the SYSTEM KPANIC event and, the ring being a flight recorder, halts in place instead of
# ending QEMU; kevdump then reads the ring through QEMU's gdbstub. The oracles: the payloads
# the program inserted (the last is N, no gap, the events kept plus the kernel's count of lost
# ones make N), the kernel ELF's debug information (addr2line names the function whose load
# faulted, kcrash_bad_read, from the KPANIC event's pc), the address the fault was forced at,
# and the readers (traceprinter, kevstat, dtrace -i; QNX's own traceprinter when
# QNX_TRACEPRINTER names one built by ../shared/qnx-tools/build.sh). The test stops QEMU itself.
#   BOARD=<board> test/qemu/test_kfault.sh BUILD_DIR HOST_DIR
set -u
b=$1
h=$2
out=$b/test-kfault
rm -rf "$out" && mkdir -p "$out"
. "$(dirname "$0")/flight_lib.sh"
. "$(dirname "$0")/tap_lib.sh"
N=50000
BAD=fffffff0    # kernel/kcrash.c KCRASH_BAD_ADDR
elf=$b/flight.elf
echo "1..16"

flight_boot "tracelogger -d1 -r ;; hang events=$N crash" 'halted in place'
check "the program inserted its $N events and the kernel faulted" \
    "grep -q 'hang: $N user events inserted; faulting the kernel now' $out/run.log && grep -q 'kernel panic: fault in kernel' $out/run.log"
sleep 0.5
check "the kernel halted in place (flight recorder): QEMU still runs for a debugger" \
    "grep -q 'halted in place for a debugger' $out/run.log && kill -0 $qpid 2>/dev/null"
flight_dump
check "kevdump reads the ring of the crashed kernel through QEMU's gdbstub" \
    "[ $? = 0 ] && [ -s $out/dump.kev ]"
kill $qpid 2>/dev/null
wait $qpid 2>/dev/null

"$h/traceprinter" "$out/dump.kev" >"$out/dump.txt" 2>"$out/tp.err"
check "traceprinter reads the dump" "[ $? = 0 ]"
flight_payloads
check "the program's events before the fault are there without a gap ($first..$last = $N, $count events)" \
    "[ $last = $N ] && [ $count = $((last - first + 1)) ]"
check "the user events kept plus the kernel's count of lost ones make $N ($events - 1 KPANIC + $lost)" \
    "[ -n '$events' ] && [ $((events - 1 + $lost)) = $N ] && [ $lost = $((first - 1)) ]"

# The KPANIC event: the dump's last event but the buffers' own (CONTROL, the loss note), right
# after the program's last one.
kp=$(grep 'SYSTEM  :KPANIC' "$out/dump.txt")
grep '^t:' "$out/dump.txt" | grep -v ' CONTROL\| SYSTEM  :SLOG ' | tail -2 >"$out/last2.txt"
check "one KPANIC event, the last, right after the program's last event" \
    "[ \$(printf '%s\n' \"\$kp\" | grep -c .) = 1 ] && head -1 $out/last2.txt | grep -q 'd0:0x$(printf %08x $N) ' && tail -1 $out/last2.txt | grep -q KPANIC"
pc=$(printf '%s\n' "$kp" | sed -n 's/.* pc:0x\([0-9a-f]*\) .*/\1/p')
# The fault's kind, as the architecture's manual reads the register the CPU latched (the panic
# message prints it raw): ARMv7-M's CFSR with PRECISERR and BFARVALID (bits 9, 15) is a bus
# error; AArch64's ESR of class 0x24/0x25 (data abort) with a fault status other than
# alignment (0x21) is a refused access. The KPANIC event's kind is FAULT's (trace-events.md).
want=?
if cfsr=$(printf '%s\n' "$kp" | sed -n 's/.*CFSR \([0-9a-f]*\) .*/\1/p') && [ -n "$cfsr" ]; then
    [ $((0x$cfsr & 0x8200)) = $((0x8200)) ] && want="bus error"
elif esr=$(printf '%s\n' "$kp" | sed -n 's/.*: esr \([0-9a-f]*\) .*/\1/p') && [ -n "$esr" ]; then
    ec=$(((0x$esr >> 26) & 0x3f)) fsc=$((0x$esr & 0x3f))
    { [ $ec = $((0x24)) ] || [ $ec = $((0x25)) ]; } && [ $fsc != $((0x21)) ] && want=access
fi
check "the KPANIC event says the load faulted ($want, from the latched register) at the forced address 0x$BAD" \
    "printf '%s\n' \"\$kp\" | grep -q 'cause:$want pc:0x[0-9a-f]* addr:0x$BAD pid:1 tid:1 msg:\"fault in kernel'"
case $(readelf -h "$elf" | sed -n 's/^ *Machine: *//p') in
    AArch64) a2l=aarch64-linux-gnu-addr2line ;;
    *) a2l=arm-none-eabi-addr2line ;;
esac
fn=$($a2l -f -e "$elf" "0x${pc:-0}" | head -1)
check "the KPANIC pc 0x$pc is the faulting load: $a2l names $fn (kcrash_bad_read)" \
    "[ '$fn' = kcrash_bad_read ]"

"$h/kevstat" "$out/dump.kev" >"$out/kevstat.txt" 2>&1
check "kevstat reads it, counts the same events and loss and shows the panic's pc" \
    "grep -q '^$events events, $lost lost' $out/kevstat.txt && grep -q '^KERNEL PANIC on CPU [0-9]* at .* pc:0x$pc addr:0x$BAD' $out/kevstat.txt"
"$h/dtrace" -q -i "$out/dump.kev" -n 'user:::event { @n = count(); }' >"$out/dtrace.txt" 2>&1
check "dtrace -i counts the dump's user events ($count)" "[ $? = 0 ] && grep -qE '^ +$count\$' $out/dtrace.txt"
if [ -n "${QNX_TRACEPRINTER:-}" ] && [ -x "$QNX_TRACEPRINTER" ]; then
    "$QNX_TRACEPRINTER" -f "$out/dump.kev" >"$out/qnx.txt" 2>&1
    qn=$(grep -c 'USREVENT:EVENT:1, d0:' "$out/qnx.txt")
    check "QNX's own traceprinter reads the dump: $qn user events, the last $N" \
        "[ $qn = $count ] && grep 'USREVENT:EVENT:1, d0:' $out/qnx.txt | tail -1 | grep -q 'd0:0x$(printf %08x $N) '"
else
    ok 0 "QNX's traceprinter # SKIP QNX_TRACEPRINTER unset (../shared/qnx-tools/build.sh builds it)"
fi

# A fault while the faulting CPU holds its trace buffer's lock, as a fault inside the ring's
# own code leaves it (hang's "crash-locked": kcrash.c takes the lock, then faults). The panic
# path used to wait for that lock for ever: no message, a silent hang. Now the message comes,
# the CPU halts in place, and the KPANIC event is still written (kernel/kpanic.c).
N2=2000
flight_boot "tracelogger -d1 -r ;; hang events=$N2 crash-locked" 'halted in place'
check "a fault with the trace buffer's lock held: the panic message comes (not a silent hang)" \
    "grep -q 'hang: $N2 user events inserted; faulting the kernel now' $out/run.log && grep -q 'kernel panic: fault in kernel' $out/run.log"
check "and the kernel halts in place for a debugger" \
    "grep -q 'halted in place for a debugger' $out/run.log && kill -0 $qpid 2>/dev/null"
flight_dump
kill $qpid 2>/dev/null
wait $qpid 2>/dev/null
"$h/traceprinter" "$out/dump.kev" >"$out/dump.txt" 2>"$out/tp.err"
flight_payloads
check "kevdump and traceprinter read that ring: the program's $N2 events, no gap ($first..$last, $count)" \
    "[ $first = 1 ] && [ $last = $N2 ] && [ $count = $N2 ]"
check "its KPANIC event is there, the last, at the forced address" \
    "grep '^t:' $out/dump.txt | grep -v ' CONTROL\\| SYSTEM  :SLOG ' | tail -1 | grep -q 'KPANIC.* addr:0x$BAD '"
