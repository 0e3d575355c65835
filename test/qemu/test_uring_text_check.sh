#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The build check of the user-event inserts' size against their alignment
# (scripts/check-uring-text.sh, run by user/module.mk on trace_uring.c where the architecture's
# arch_ring_hint.h sets ARCH_URING_TEXT_ALIGN): on objects built here with the host's compiler,
# whose functions' sizes nm reports, it passes what fits, fails with a message naming the
# insert and its size what does not, fails on an object without the inserts, and does
# nothing where no alignment is set. Host only. Prints TAP.
set -u
cd "$(dirname "$0")/../.." || exit 1
. test/qemu/tap_lib.sh
c=scripts/check-uring-text.sh
t=$(mktemp -d) && trap 'rm -rf "$t"' EXIT
echo "1..6"
# trace_uring_insert large (a few hundred bytes), TraceUserEventAt small
{ echo 'volatile int v[64];'
  printf 'int trace_uring_insert(void) {'; for i in $(seq 0 63); do printf ' v[%d] = %d;' $i $i; done; echo ' return 0; }'
  echo 'int TraceUserEventAt(void) { return v[1]; }'; } >"$t/inserts.c"
echo 'int other(void) { return 1; }' >"$t/other.c"
cc -O1 -c "$t/inserts.c" -o "$t/inserts.o" && cc -O1 -c "$t/other.c" -o "$t/other.o" ||
    { echo "Bail out! the host's compiler cannot build the test objects"; exit 1; }
size=$(nm -S "$t/inserts.o" | awk '$4 == "trace_uring_insert" { print $2 }')
size=$((16#${size:-0}))
printf '#define ARCH_URING_TEXT_ALIGN 64\n' >"$t/align64.h"
printf '/* no alignment */\n' >"$t/none.h"

$c "$t/inserts.o" "$t/none.h" nm 4096 >"$t/out" 2>&1
check "inserts under their alignment pass ($size bytes, 4096)" "[ $? = 0 ] && [ ! -s $t/out ]"
$c "$t/inserts.o" "$t/align64.h" nm >"$t/out" 2>&1
check "one at or past the header's alignment fails, naming it and its size" \
    "[ $? = 1 ] && grep -q 'trace_uring_insert is $size bytes, not under its 64-byte alignment' $t/out && ! grep -q TraceUserEventAt $t/out"
$c "$t/inserts.o" "$t/none.h" nm >"$t/out" 2>&1
check "no alignment set (a Cortex-M or x86 board): nothing checked, nothing said" "[ $? = 0 ] && [ ! -s $t/out ]"
$c "$t/other.o" "$t/align64.h" nm >"$t/out" 2>&1
check "an object without the inserts fails, saying so" \
    "[ $? = 1 ] && grep -q 'has no trace_uring_insert' $t/out"
$c "$t/missing.o" "$t/align64.h" nm >"$t/out" 2>&1
check "an object that is not there fails" "[ $? = 1 ] && [ -s $t/out ]"
$c --help >"$t/out" 2>&1
check "--help says what it checks" "[ $? = 0 ] && grep -q ARCH_URING_TEXT_ALIGN $t/out"
