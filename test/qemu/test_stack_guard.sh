#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Stack guards (TAP; docs/hostile.md, "Stack guards"): an overflow is a fault, never a write into
# the program's own data. The stackguard image runs user/apps/stackover twice under appinit, with
# the tracelogger: `stackover` recurses without end in its main thread, `stackover_th` in a
# thread of its own, in frames of about 128 bytes, each checking before every call that its
# canaries (the 64 bytes right below the thread's stack, a block of its .data and one of its
# .bss) are whole, exiting 3 when one is not. The oracles: the kernel's line on the console
# and the capture's FAULT event (SIGSEGV, the thread that recursed), the wait status appinit
# got (the fault's, 0xb), and the address that faulted held to the ELF's symbols by nm: for main
# the frame under its RAM slot (__app_ram: the stack lies at the slot's bottom), for the thread
# its stack's guard (the symbol `area` + KSTACK_GUARD, kernel/arch/<arch>/arch.mk).
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
area=$(sym "$b/stackguard/stackover_th.elf" area)
echo "1..9"

(cd "$top" && capture_boot "$board" "$img" "stackover stackover_th" "$out" "$(cd "$h" && pwd)")
rc=$?
check "the image ran to its end with the capture written (status $rc: appinit's 2 failures)" \
    "[ $rc = 2 ] && grep -q 'appinit: done, 2 failures' $out/run.log && [ -s $out/t.kev ]"
[ $rc = 2 ] || tail -20 "$out/run.log" | sed 's/^/# /'

# killed PROGRAM TID: the kernel's line for PROGRAM's fault in thread TID, and the first address
# it names (what faulted: the address written, or the stack pointer an exception could not be
# stacked at).
killed() { grep -a "^kernel: process [0-9]* ($1) killed: .* in thread $2\$" "$out/run.log"; }
addr_of() { grep -o '0x[0-9a-f]*' <<< "$1" | head -1; }
within() { [ -n "$1" ] && [ $(($1)) -ge $(($2)) ] && [ $(($1)) -lt $(($3)) ]; }
check "no canary of either program overwritten: its data below and around its stacks whole" \
    "! grep -qa 'stackover: canary' $out/run.log"
grep -a 'stackover: canary' "$out/run.log" | sed 's/^/# /'
frames=$(grep -a -m1 '^[0-9]*/stackover: stackover: frames of' "$out/run.log" | grep -o '[0-9]* bytes' | cut -d' ' -f1)
check "the frames are of the size the guard is sure to stop ($frames bytes: at most ${guard})" \
    "[ -n '$frames' ] && [ '$frames' -ge 96 ] && [ '$frames' -le $guard ]"

line=$(killed stackover 1)
a=$(addr_of "$line")
check "main's overflow: the kernel killed stackover in thread 1 ($line)" "[ -n \"\$line\" ]"
check "at $a, within the frame below its RAM slot ($ram, nm's __app_ram)" \
    "within '$a' $((ram - 256)) $((ram + 32))"
line=$(killed stackover_th 2)
a=$(addr_of "$line")
g=$(printf '0x%x' $((area + guard)))
check "a thread's overflow: the kernel killed stackover_th in thread 2 ($line)" "[ -n \"\$line\" ]"
check "at $a, within the thread's stack guard ($g + $guard, nm's area + $guard)" \
    "within '$a' $g $((g + guard + 32))"
check "appinit got the fault's wait status for both (0xb, SIGSEGV)" \
    "grep -qa 'appinit: stackover (pid [0-9]*) failed, wait status 0xb' $out/run.log && grep -qa 'appinit: stackover_th (pid [0-9]*) failed, wait status 0xb' $out/run.log"

"$h/traceprinter" -n "$out/t.kev" > "$out/t.txt" 2>&1
check "the capture's FAULT events: SIGSEGV in stackover's main thread and stackover_th's thread 2" \
    "grep -q 'SYSTEM  :FAULT *[0-9]*/1 SIGSEGV .*(stackover/main)\$' $out/t.txt && grep -q 'SYSTEM  :FAULT *[0-9]*/2 SIGSEGV .*(stackover_th/recurse)\$' $out/t.txt"
grep 'SYSTEM  :FAULT' "$out/t.txt" | sed 's/^/# /'
