#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fbtgen (tools/fbtgen, docs/fbt.md) against binutils: its instruction decoder and every probe
# site's out-of-line code in an image of the board, checked by objdump's disassembly
# (test/tools/fbtgen_check.py); the second link's text equal to the first's (fbtgen --check,
# which the build runs too), and the rules' reasons reaching dtrace's error messages.
#   test/tools/test_fbtgen.sh BUILD_DIR HOST_DIR     (BOARD in the environment)
set -u
B=$1; H=$2
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/test/qemu/tap_lib.sh"
board=${BOARD:-mps2-an385}
case $board in
    x86-pc) od=i686-linux-gnu-objdump ;;
    qemu-virt-a53|raspi3b) od=aarch64-linux-gnu-objdump ;;
    *) od=arm-none-eabi-objdump ;;
esac
img=$B/dtrace.elf
echo "1..5"
out=$(python3 "$here/test/tools/fbtgen_check.py" "$H/fbtgen" "$od" "$here/kernel/fbt.rules" \
      "$B/fbt/dtrace/pass1.elf" "$img" 2>&1)
echo "$out" | grep '^#'
read -r _ ninsns nslots nbad < <(echo "$out" | grep '^RESULT')
check "fbtgen decodes $ninsns instructions as objdump does" '[ "${nbad:-1}" = 0 ] && [ "${ninsns:-0}" -gt 10000 ]'
check "every one of $nslots sites' slots is its instruction and a branch back, by objdump" \
    '[ "${nbad:-1}" = 0 ] && [ "${nslots:-0}" -gt 200 ]'
"$H/fbtgen" --check "$B/fbt/dtrace/pass1.elf" "$img" > /dev/null
ok $? "the second link moved no code (fbtgen --check)"
# the reasons, in DTrace's words
msg=$("$H/dtrace" --kernel "$img" -e -n 'fbt::trace_ring_start:entry' 2>&1)
echo "$msg" | grep -q 'fbt::trace_ring_start:entry: trace_ring_start cannot be probed: it writes the trace ring'
ok $? "a function the rules rule out: $msg"
msg=$("$H/dtrace" --kernel "$img" -e -n 'fbt::no_such_function:entry' 2>&1)
echo "$msg" | grep -q 'probe description fbt::no_such_function:entry does not match any probes'
ok $? "a function that does not exist: $msg"
