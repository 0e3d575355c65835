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
# gdb leaves QEMU running (disconnect: the CPU stays held), and the script ends it: a gdb
# `kill` here raced QEMU's exit (gdb said "Remote communication error ... Broken pipe" and
# exited 1 after reading every value, in 2 runs of 20 on an idle machine), the loop took that
# for a failed read and tried again on a socket QEMU had removed as it ended, ten times. A try
# counts by what gdb printed: the four values as numbers. It is tried again only while QEMU
# runs (a stub slow to answer under load), and a stub that never answers is said as such.
sock_wait "$gdb" || echo "# QEMU's gdb socket did not appear within 5 s"
read_ok() { [ "$(grep -cE '^0xe000(2000|edfc):[[:space:]]+0x[0-9a-f]+$' "$tmp/gdb")" = 4 ]; }
tries=0
: > "$tmp/gdb"
while [ $tries -lt 10 ] && kill -0 "$qpid" 2>/dev/null; do
    tries=$((tries + 1))
    timeout 20 gdb-multiarch -q -nx -batch -ex "target remote $gdb" \
        -ex 'x/wx 0xE0002000' -ex 'set *(unsigned *)0xE0002000 = 3' -ex 'x/wx 0xE0002000' \
        -ex 'x/wx 0xE000EDFC' -ex 'set *(unsigned *)0xE000EDFC = 0x10000' -ex 'x/wx 0xE000EDFC' \
        -ex disconnect > "$tmp/gdb" 2>&1
    read_ok && break
    sleep 1
done
alive=no; kill -0 "$qpid" 2>/dev/null && alive=yes
kill "$qpid" 2>/dev/null
wait "$qpid" 2>/dev/null
if ! read_ok; then
    # (what gdb and QEMU said, then both checks failed with the reason)
    sed 's/^/# gdb: /' "$tmp/gdb" | head -8
    sed 's/^/# qemu: /' "$tmp/qemu" | head -4
    why="gdb could not read the registers through QEMU's stub ($tries tries; QEMU still running: $alive)"
    check "FP_CTRL: $why" false
    check "DEMCR: $why" false
    exit 0
fi
# v ADDR N: the N-th value gdb read at ADDR (a hex number: read_ok saw four)
v() { awk -v a="$1" '$1 == a ":" { print $2 }' "$tmp/gdb" | sed -n "${2}p"; }
check "FP_CTRL reads $(v 0xe0002000 1) and after writing KEY|ENABLE $(v 0xe0002000 2): QEMU models no Flash Patch and Breakpoint unit" \
    '[ "$(v 0xe0002000 1)" = 0x00000000 ] && [ "$(v 0xe0002000 2)" = 0x00000000 ]'
check "DEMCR after writing MON_EN reads $(v 0xe000edfc 2): no DebugMonitor exception to take a breakpoint" \
    '[ $(( $(v 0xe000edfc 2) & 0x10000 )) = 0 ]'
[ $tries -gt 1 ] && echo "# gdb read the registers at try $tries"
grep -v '^0x' "$tmp/gdb" | grep -iv 'warning\|inferior\|determining\|disconnect\|ending remote' | sed 's/^/# /' | head -5
