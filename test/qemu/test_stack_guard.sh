#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Stacks (TAP; docs/hostile.md, "Stack guards"; docs/applications.md, "Thread stacks"). First the
# guards: an overflow is a fault the kernel says as a stack overflow, naming the thread and its
# stack's size, never a write into the program's own data. The stackguard image runs
# user/apps/stackover three times under appinit, with the tracelogger: `stackover` recurses
# without end in its main thread, `stackover_th` in a thread on a KSTACK stack, `stackover_al` in
# a thread on a 1 KB stack ThreadCreate allocates, in frames of about 128 bytes, each checking
# before every call that its canaries (the 64 bytes right below the KSTACK stack, a block of its
# .data and one of its .bss) are whole, exiting 3 when one is not. The oracles: the kernel's
# line on the console (the sizes held to the ELF's symbols by nm: __stack - __app_ram for main,
# the KSTACK area's size less its guard and the pad below, the program's own 1 KB) and the
# capture's FAULT event (SIGSEGV, the thread that recursed), the wait status appinit got (the
# fault's, 0xb), and the address that faulted held to the symbols: for main the frame under its
# RAM slot (__app_ram: the stack lies at the slot's bottom), for the KSTACK thread its stack's
# guard (the symbol `area` + KSTACK_GUARD, kernel/arch/<arch>/arch.mk).
# Then the defaults (the stackplain image): user/apps/qnxthreads runs workers on plain 4 KB
# arrays, each using 3.5 KB of locals inside the array it was given, and on stacks ThreadCreate
# allocates, more in turn than the heap holds at once; user/apps/fplocals (an app.mk of one line)
# keeps 4 KB of locals in main and prints doubles, which must be the host's printf of the same
# values where the board's C library prints floating point (picolibc: mps2-an385, qemu-virt-a53,
# raspi3b); on netduinoplus2, whose default main stack is 2 KB, the kernel says its overflow.
#   BOARD=<board> test/qemu/test_stack_guard.sh BUILD_DIR HOST_DIR
set -u
b=$1
h=$2
board=${BOARD:-mps2-an385}
here=$(dirname "$0")
top=$here/../..
. "$here/tap_lib.sh"
. "$here/capture_boot.sh"
out=$b/test-stack-guard
rm -rf "$out" && mkdir -p "$out"
img=$b/stackguard.elf
arch=$(sed -n 's/^ARCH *:= *//p' "$top/boards/$board/board.mk")
guard=$(sed -n 's/^KSTACK_GUARD *:= *//p' "$top/kernel/arch/$arch/arch.mk")
case $arch in
    aarch64) nm=aarch64-linux-gnu-nm ;;
    x86) nm=nm ;;
    *) nm=arm-none-eabi-nm ;;
esac
sym() {      # ELF SYMBOL: its address (0 when it has none)
    local v
    v=$("$nm" "$1" | awk -v s="$2" '$3 == s { print $1; exit }')
    printf '0x%x' "0x${v:-0}"
}
ram=$(sym "$b/stackguard/stackover.elf" __app_ram)
main_size=$(( $(sym "$b/stackguard/stackover.elf" __stack) - ram ))
area=$(sym "$b/stackguard/stackover_th.elf" area)
area_size=$("$nm" -S "$b/stackguard/stackover_th.elf" | awk '$4 == "area" { print $2; exit }')
th_size=$(( 0x${area_size:-0} - 2 * guard ))     # less the pad below the stack, and its guard
echo "1..13"

(cd "$top" && capture_boot "$board" "$img" "stackover stackover_th stackover_al" "$out" "$(cd "$h" && pwd)")
rc=$?
check "the image ran to its end with the capture written (status $rc: appinit's 3 failures)" \
    "[ $rc = 3 ] && grep -q 'appinit: done, 3 failures' $out/run.log && [ -s $out/t.kev ]"
[ $rc = 3 ] || tail -20 "$out/run.log" | sed 's/^/# /'

# overflow PROGRAM THREAD-NAME SIZE TID: the kernel's line for PROGRAM's stack overflow in
# thread TID, named with its stack's size; fault_addr LINE: the address the CPU's words after the
# stack's give (what faulted: the address written, or the stack pointer an exception could not
# be stacked at).
overflow() {
    grep -a "^kernel: process [0-9]* ($1) killed: stack overflow of $2's $3-byte stack: .* in thread $4\$" "$out/run.log"
}
fault_addr() { grep -o '0x[0-9a-f]*' <<< "${1#*-byte stack: }" | head -1; }
within() { [ -n "$1" ] && [ $(($1)) -ge $(($2)) ] && [ $(($1)) -lt $(($3)) ]; }
check "no canary of any program overwritten: its data below and around its stacks whole" \
    "! grep -qa 'stackover: canary' $out/run.log"
grep -a 'stackover: canary' "$out/run.log" | sed 's/^/# /'
frames=$(grep -a -m1 '^[0-9]*/stackover: stackover: frames of' "$out/run.log" | grep -o '[0-9]* bytes' | cut -d' ' -f1)
check "the frames are of the size the guard is sure to stop ($frames bytes: at most ${guard})" \
    "[ -n '$frames' ] && [ '$frames' -ge 96 ] && [ '$frames' -le $guard ]"

line=$(overflow stackover main $main_size 1)
a=$(fault_addr "$line")
check "main's overflow: the kernel said stackover's stack overflow, main's $main_size-byte stack (nm's __stack - __app_ram), in thread 1 ($line)" \
    "[ -n \"\$line\" ]"
[ -n "$line" ] || grep -a '^kernel: process [0-9]* (stackover)' "$out/run.log" | sed 's/^/# /'
check "at $a, within the frame below its RAM slot ($ram, nm's __app_ram)" \
    "within '$a' $((ram - 256)) $((ram + 32))"
line=$(overflow stackover_th recurse $th_size 2)
a=$(fault_addr "$line")
g=$(printf '0x%x' $((area + guard)))
check "a KSTACK thread's overflow: the kernel said stackover_th's, recurse's $th_size-byte stack (nm's area), in thread 2 ($line)" \
    "[ -n \"\$line\" ]"
[ -n "$line" ] || grep -a '^kernel: process [0-9]* (stackover_th)' "$out/run.log" | sed 's/^/# /'
check "at $a, within the thread's stack guard ($g + $guard, nm's area + $guard)" \
    "within '$a' $g $((g + guard + 32))"
asked=$(grep -a -m1 '^[0-9]*/stackover_al: stackover: recursing in a thread on a stack of' "$out/run.log" | grep -o '[0-9]* bytes' | cut -d' ' -f1)
line=$(overflow stackover_al recurse "${asked:-1024}" 2)
check "an allocated stack's overflow: the kernel said stackover_al's, recurse's ${asked:-?}-byte stack (the size the program asked), in thread 2 ($line)" \
    "[ -n '$asked' ] && [ -n \"\$line\" ]"
[ -n "$line" ] || grep -a '^kernel: process [0-9]* (stackover_al)' "$out/run.log" | sed 's/^/# /'
check "appinit got the fault's wait status for the three (0xb, SIGSEGV)" \
    "for p in stackover stackover_th stackover_al; do grep -qa \"appinit: \$p (pid [0-9]*) failed, wait status 0xb\" $out/run.log || exit 1; done"

"$h/traceprinter" -n "$out/t.kev" > "$out/t.txt" 2>&1
check "the capture's FAULT events: SIGSEGV in stackover's main thread, stackover_th's and stackover_al's thread 2" \
    "grep -q 'SYSTEM  :FAULT *[0-9]*/1 SIGSEGV .*(stackover/main)\$' $out/t.txt && grep -q 'SYSTEM  :FAULT *[0-9]*/2 SIGSEGV .*(stackover_th/recurse)\$' $out/t.txt && grep -q 'SYSTEM  :FAULT *[0-9]*/2 SIGSEGV .*(stackover_al/recurse)\$' $out/t.txt"
grep 'SYSTEM  :FAULT' "$out/t.txt" | sed 's/^/# /'

# The defaults: qnxthreads, and fplocals where its doubles print (or overflow, said so).
case $board in
    mps2-an385|qemu-virt-a53|raspi3b) fp=print ;;
    netduinoplus2) fp=overflow ;;
    *) fp=none ;;
esac
progs="qnxthreads"
[ $fp != none ] && progs="qnxthreads fplocals"
(cd "$top" && BOARD=$board QEMU_ARGS="appinit $progs" QEMU_TIMEOUT=60 scripts/qemu-run.sh \
    "$b/stackplain.elf" > "$out/plain.log" 2>&1)
rc=$?
want=0
[ $fp = overflow ] && want=1
check "the stackplain image ran to its end (status $rc: appinit's $want failures)" "[ $rc = $want ]"
[ $rc = $want ] || tail -20 "$out/plain.log" | sed 's/^/# /'
check "qnxthreads: its workers on plain 4 KB arrays and on allocated stacks all ran, each using the stack it was given" \
    "grep -qa '^[0-9]*/qnxthreads: qnxthreads: 2 workers on plain 4 KB arrays, 6 on allocated stacks, 0 failed\$' $out/plain.log && [ \$(grep -ca 'bytes of locals at [0-9]*\.\.[0-9]* of its 4096-byte array' $out/plain.log) = 2 ]"
grep -a 'qnxthreads: worker' "$out/plain.log" | sed 's/^/# /'
case $fp in
print)
    python3 - "$out/plain.log" > "$out/fp.txt" <<'PY'
import sys
# fplocals' values, computed as it computes them (user/apps/fplocals/main.c), printed by the host
s = [i * 0.25 + 1.0 / (i + 1) for i in range(512)]
total = 0.0
for v in s:
    total += v
want = ["fplocals: 512 samples, sum %f, mean %e, last %g" % (total, total / 512.0, s[511]),
        "fplocals: printf %%f of %f" % (total / 3.0)]
got = [l.split("/fplocals: ", 1)[1].rstrip("\n") for l in open(sys.argv[1], errors="replace")
       if "/fplocals: " in l]
print("ok" if got[:2] == want else "differ: %r, not %r" % (got[:2], want))
PY
    check "fplocals: 4 KB of locals in main on the default stack, its doubles printed as the host prints them ($(cat "$out/fp.txt"))" \
        "[ \"\$(cat $out/fp.txt)\" = ok ] && grep -qa 'appinit: fplocals (pid [0-9]*) finished' $out/plain.log"
    grep -a 'fplocals: printf of a double took\|fplocals: main' "$out/plain.log" | sed 's/^/# /' ;;
overflow)
    check "fplocals: its 4 KB of locals overflow the board's 2 KB default main stack, said so" \
        "grep -qa '^kernel: process [0-9]* (fplocals) killed: stack overflow of main.s 2048-byte stack: .* in thread 1\$' $out/plain.log" ;;
*)
    ok 0 "fplocals: not on $board (its C library prints no floating point: docs/applications.md)" ;;
esac
