#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What QEMU gives netduinoplus2 for probes on code in flash (docs/usdt.md, "Code in flash"):
# the Cortex-M4's Flash Patch and Breakpoint unit and its DebugMonitor exception are what a
# real board would use, and this checks, with gdb-multiarch's own reads and writes of the
# registers through QEMU's gdb stub (no code of ours runs: the CPU is held at reset), that the
# emulator models neither: FP_CTRL reads 0 (no comparators) and ignores its enable, DEMCR's
# MON_EN ignores a write. If QEMU starts to model them, this fails, and the provider can be
# built and checked here.
#   test/qemu/test_fpb_qemu.sh BUILD_DIR     (the netduinoplus2 build)
set -u
B=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/test/qemu/tap_lib.sh"
img=$B/demo.elf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..2"
gdb=$tmp/gdb.sock   # QEMU's gdbstub: a UNIX socket of this run's own
timeout 60 qemu-system-arm -M netduinoplus2 -nographic -monitor none -serial null \
    -kernel "$img" -S -gdb "unix:$gdb,server=on,wait=off" > "$tmp/qemu" 2>&1 &
qpid=$!
sock_wait "$gdb"    # (gdb tries a UNIX socket once: without it, its reads say "Cannot access")
for _ in 1 2 3 4 5 6 7 8 9 10; do
    timeout 20 gdb-multiarch -q -nx -batch -ex "target remote $gdb" \
        -ex 'x/wx 0xE0002000' -ex 'set *(unsigned *)0xE0002000 = 3' -ex 'x/wx 0xE0002000' \
        -ex 'x/wx 0xE000EDFC' -ex 'set *(unsigned *)0xE000EDFC = 0x10000' -ex 'x/wx 0xE000EDFC' \
        -ex kill > "$tmp/gdb" 2>&1 && grep -q '^0xe0002000:' "$tmp/gdb" && break
    sleep 1
done
kill "$qpid" 2>/dev/null
wait "$qpid" 2>/dev/null
v() { awk -v a="$1" '$1 == a ":" { print $2 }' "$tmp/gdb" | sed -n "${2}p"; }
check "FP_CTRL reads $(v 0xe0002000 1) and after writing KEY|ENABLE $(v 0xe0002000 2): QEMU models no Flash Patch and Breakpoint unit" \
    '[ "$(v 0xe0002000 1)" = 0x00000000 ] && [ "$(v 0xe0002000 2)" = 0x00000000 ]'
check "DEMCR after writing MON_EN reads $(v 0xe000edfc 2): no DebugMonitor exception to take a breakpoint" \
    '[ -n "$(v 0xe000edfc 2)" ] && [ $(( $(v 0xe000edfc 2) & 0x10000 )) = 0 ]'
[ -s "$tmp/gdb" ] && grep -v '^0x' "$tmp/gdb" | grep -iv 'warning\|kill\|inferior' | sed 's/^/# /' | head -5
