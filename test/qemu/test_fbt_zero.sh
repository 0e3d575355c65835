#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Zero probe effect (docs/fbt.md): the kernel benchmarks (user/apps/kbench, as make bench runs
# them: -icount shift=0, one CPU) on the kernel with the fbt provider built in and its table
# linked, no probe enabled, and on the same kernel built without it (kernel-nofbt: no trap
# handler, no hook on the kernel-fault path). Every kernel figure, instruction for
# instruction, must be the same: the null call, the switch and the round trip, untraced and
# traced in fast and wide mode, and the trace's own costs.
#   test/qemu/test_fbt_zero.sh BUILD_DIR     (BOARD in the environment)
set -u
B=$1
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/scripts/console.sh"
. "$here/test/qemu/tap_lib.sh"
run() { QEMU_SMP=1 QEMU_ICOUNT=1 QEMU_TIMEOUT=${QEMU_TIMEOUT:-600} con_run_text "$1" 2>&1 | grep '^BENCH .* insns$'; }
echo "1..4"
fbt=$(run "$B/kbench.elf")
nofbt=$(run "$B/kbench_nofbt.elf")
nfig=$(printf '%s\n' "$fbt" | grep -c .)
check "the benchmarks ran on both kernels ($nfig figures)" '[ "$nfig" -ge 9 ] && [ "$(printf "%s\n" "$nofbt" | grep -c .)" = "$nfig" ]'
diff <(printf '%s\n' "$nofbt") <(printf '%s\n' "$fbt") > /dev/null
ok $? "every kernel figure is the same with fbt built in and no probe enabled"
[ $? = 0 ] || diff <(printf '%s\n' "$nofbt") <(printf '%s\n' "$fbt") | sed 's/^/# /'
for k in kcall_null context_switch msg_roundtrip; do
    a=$(printf '%s\n' "$nofbt" | awk -v n="${k}_insns" '$2 == n { print $3 }')
    b=$(printf '%s\n' "$fbt" | awk -v n="${k}_insns" '$2 == n { print $3 }')
    echo "# $k: $a instructions without fbt, $b with"
done
a=$(printf '%s\n' "$fbt" | awk '$2 == "msg_roundtrip_insns" { print $3 }')
b=$(printf '%s\n' "$nofbt" | awk '$2 == "msg_roundtrip_insns" { print $3 }')
check "the message round trip: $b instructions without fbt, $a with" '[ -n "$a" ] && [ "$a" = "$b" ]'
a=$(printf '%s\n' "$fbt" | awk '$2 == "kcall_null_insns_trace_fast" { print $3 }')
b=$(printf '%s\n' "$nofbt" | awk '$2 == "kcall_null_insns_trace_fast" { print $3 }')
check "the traced null call: $b instructions without fbt, $a with" '[ -n "$a" ] && [ "$a" = "$b" ]'
