#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A faulting program's capture names its fault, pc and stack (docs/trace-events.md "Stacks and
# faults"). user/apps/stackfault calls main -> fault_a -> fault_b -> fault_c, which stores to
# the kernel's RAM (the board's BOARD_KERNEL_RAM_ADDR); it runs under the board's dtrace
# (proc:::fault { ustack(); }) with the tracelogger capturing. The oracles: the program's
# source (the faulting function, the address it writes, a write the MPU/MMU refuses:
# SIGSEGV, kind access) and binutils' addr2line on its ELF for the FAULT's pc and for each
# frame of the STACK that follows it (callers at their return address - 1); and the board's
# own proc:::fault, whose ustack( ) dtrace -i over the capture must repeat exactly.
#   test/stacks/test_fault_capture.sh BUILD_DIR HOST_DIR     (BOARD in the environment)
# The fault is also QNX's COMM SIGNAL [si_signo, si_code] just before the FAULT, as QNX's kernel
# records a signal, checked against the program's source (SIGSEGV, SEGV_ACCERR: the MPU/MMU
# refused the write) and, where QNX_TRACEPRINTER names one, QNX's own traceprinter.
# Registered for mps2-an385, qemu-virt-a53 and x86-pc (there the capture comes through UART 1
# and kevcapture; programs are built so that GCC's local leaf functions keep their frame
# record, docs/profiling.md).
set -u
B=$(cd "$1" && pwd); H=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/scripts/console.sh"
. "$here/test/stacks/stacks_lib.sh"
board=$(basename "$B")
img=$B/stackfault.elf
elf=$B/stackfault/stackfault.elf
a2l=$(addr2line_of "$elf")
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "# files in $tmp"
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
echo "1..9"
D='proc:::fault { printf("fault %d\n", arg0); ustack(); }'
"$H/dcompile" -n "$D" -o "$tmp/f.dobj" || { echo "not ok 1 - dcompile"; exit 1; }
if uart_board "$board"; then   # the program's text on the board, the capture from UART 1
    QEMU_ARGS="dtrace -c appinit -n '$D' ;; appinit stackfault ;; tracelogger -d1" QEMU_UART1=$tmp/cap.uart \
        QEMU_TIMEOUT=120 "$here/scripts/qemu-run.sh" "$img" > "$tmp/run.out" 2>&1
    rc=$?
    "$H/kevcapture" -q -o "$tmp/cap.kev" "$tmp/cap.uart" || rc=1
else                            # the tracelogger writes cap.kev where QEMU runs (semihosting)
    (cd "$tmp" && QEMU_ARGS="dtrace -c appinit $tmp/f.dobj ;; appinit stackfault ;; tracelogger -d1 -f cap.kev" \
        QEMU_TIMEOUT=120 "$here/scripts/qemu-run.sh" "$img" > "$tmp/run.out" 2>&1)
    rc=$?
fi
[ $rc = 0 ] && [ -s "$tmp/cap.kev" ]
ok $? "the image ran to its end and the tracelogger wrote the capture (status $rc)"
[ $rc = 0 ] || sed 's/^/# /' "$tmp/run.out" | tail -20

"$H/traceprinter" -n "$tmp/cap.kev" > "$tmp/cap.txt" 2>&1
fault=$(grep 'SYSTEM  :FAULT .*(stackfault/main)$' "$tmp/cap.txt")
addr=$(sed -n 's/^#define BOARD_KERNEL_RAM_ADDR *\(0x[0-9a-fA-F]*\)u.*/\1/p' "$here/boards/$board/board_user.h")
want="SIGSEGV access pc 0x[0-9a-f]* addr $(printf '0x%x' "$addr")"
[ "$(grep -c . <<< "$fault")" = 1 ] && grep -q " $want " <<< "$fault"
ok $? "one FAULT event of stackfault: SIGSEGV, a refused access at the address it writes ($addr)"
[ -n "$fault" ] || grep 'SYSTEM' "$tmp/cap.txt" | sed 's/^/# /' | head

pc=$(sed -n 's/.* pc \(0x[0-9a-f]*\) .*/\1/p' <<< "$fault")
fn=$("$a2l" -f -e "$elf" "${pc:-0}" | head -1)
[ "$fn" = fault_c ]
ok $? "the FAULT's pc ($pc) is in fault_c by addr2line ($fn)"

# the STACK right after it: the faulting thread's, kind fault, gdb's order of frames
stack=$(grep -A1 'SYSTEM  :FAULT .*(stackfault/main)$' "$tmp/cap.txt" | sed -n 2p)
pcs=$(sed -n 's/.*SYSTEM  :STACK .* fault depth [0-9]* \(0x.*\) (stackfault\/main)$/\1/p' <<< "$stack")
names=""
k=0
for p in $pcs; do
    [ $k = 0 ] && a=$p || a=$(printf '0x%x' $((p - 1)))
    names="$names $("$a2l" -f -e "$elf" "$a" | head -1)"
    k=$((k + 1))
done
echo "# STACK: $pcs ->$names"
case "$names" in " fault_c fault_b fault_a main"*) r=0 ;; *) r=1 ;; esac
[ $r = 0 ] && [ "${pcs%% *}" = "$pc" ]
ok $? "the STACK that follows it starts at the pc and names fault_c fault_b fault_a main by addr2line"

# kevstat's faults section: the same fault, and the stack's frames one a line (as stacksym reads)
"$H/kevstat" -s faults "$tmp/cap.kev" > "$tmp/kevstat.txt" 2>&1
kpcs=$(awk '/stackfault [0-9]+\/1 SIGSEGV/ { on = 1; next } on && /^ +0x[0-9a-f]+$/ { printf "%s%s", sep, $1; sep = " " }' "$tmp/kevstat.txt")
grep -q "stackfault [0-9]*/1 $want" "$tmp/kevstat.txt" && [ -n "$kpcs" ] && [ "$kpcs" = "$pcs" ]
ok $? "kevstat -s faults lists the fault and its stack"
[ "$kpcs" = "$pcs" ] || sed 's/^/# /' "$tmp/kevstat.txt"

# the board's proc:::fault, and dtrace -i's over the capture: the same line and frames
con_of dtrace < "$tmp/run.out" | awk '/fault [0-9]+$/ { on = 1; print "fault", $NF; next }
    on && /^ +0x[0-9a-f]+$/ { print $1 }' > "$tmp/live.txt"
"$H/dtrace" -q -i "$tmp/cap.kev" -n "$D" 2> "$tmp/cap.err" |
    awk '/fault [0-9]+$/ { on = 1; print "fault", $NF; next } on && /^ +0x[0-9a-f]+$/ { print $1 }' > "$tmp/rep.txt"
[ "$(head -1 "$tmp/live.txt")" = "fault 11" ]
ok $? "the board's proc:::fault fired with SIGSEGV (11) and $(($(wc -l < "$tmp/live.txt") - 1)) frames"
[ -s "$tmp/rep.txt" ] && diff "$tmp/live.txt" "$tmp/rep.txt" > "$tmp/d.diff"
ok $? "dtrace -i fires proc:::fault over the capture with the board's signal and ustack( )"
[ -s "$tmp/d.diff" ] && sed 's/^/# /' "$tmp/d.diff"
# a damaged STACK (depth 33, over the kernel's bound): dtrace -i says so and fires
# proc:::fault without a stack; traceprinter prints the raw words and reads on
python3 - "$tmp/cap.kev" "$tmp/bad.kev" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
fmt = '>4I' if b'TRACE_BIG_ENDIAN::' in d[:4096] else '<4I'
for off in range(d.find(b'TRACE_HEADER_END::'), len(d) - 16):
    h, _, _, info = struct.unpack_from(fmt, d, off)
    # the CB slot of a STACK of kind fault: header, time, who, info
    if h >> 30 == 1 and (h >> 10) & 0x1f == 5 and h & 0x3ff == 0x205 and info & 0xf == 3:
        struct.pack_into(fmt[0] + 'I', d, off + 12, (info & ~0xff00) | 33 << 8)
        break
else:
    sys.exit(1)
open(sys.argv[2], 'wb').write(d)
PY
"$H/dtrace" -q -i "$tmp/bad.kev" -n "$D" > "$tmp/bad.out" 2> "$tmp/bad.err"
drc=$?
"$H/traceprinter" "$tmp/bad.kev" > "$tmp/bad.txt" 2>&1
trc=$?
[ $drc = 0 ] && [ $trc = 0 ] && grep -q 'malformed' "$tmp/bad.err" && grep -q '^fault 11$' "$tmp/bad.out" &&
    ! grep -q '^ *0x' "$tmp/bad.out" && grep -q 'THDEAD .*(stackfault/main)' "$tmp/bad.txt"
ok $? "a malformed STACK: dtrace -i says so and fires proc:::fault without it; traceprinter reads on"
[ $drc = 0 ] || sed 's/^/# /' "$tmp/bad.err"
# QNX's own record of it: COMM SIGNAL [si_signo 11, si_code 2 = SEGV_ACCERR] right before the FAULT
sig=$(grep -B1 'SYSTEM  :FAULT .*(stackfault/main)$' "$tmp/cap.txt" | head -1)
r=1
grep -q 'COMM *:SIGNAL *si_signo:11 si_code:2' <<< "$sig" && r=0
if [ $r = 0 ] && [ -n "${QNX_TRACEPRINTER:-}" ] && [ -x "$QNX_TRACEPRINTER" ]; then
    "$QNX_TRACEPRINTER" -f "$tmp/cap.kev" 2>/dev/null | grep -q 'SIGNAL.*si_signo:11 si_code:2' || r=1
fi
also=""
[ -n "${QNX_TRACEPRINTER:-}" ] && also=", in QNX's own traceprinter too"
ok $r "the fault is QNX's COMM SIGNAL (si_signo 11, si_code 2 SEGV_ACCERR) just before the FAULT$also"
[ $r = 0 ] || echo "# before the FAULT: $sig"
exit 0
