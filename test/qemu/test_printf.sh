#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The printf family on one board against the host's: pfcheck (user/apps/pfcheck) prints the
# cases of printf_cases.h with the board's C library (64-bit integers, %p, %z, widths, flags,
# floating point where the library has it); printf_host.c prints the same cases with the
# host's C library, the truth. Every line must be the same.
#   test/qemu/test_printf.sh BOARD
# Prints TAP.
set -u
board=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
. test/qemu/tap_lib.sh
. scripts/console.sh

cc -std=gnu11 -Wall -Wextra -Werror -Iuser/apps/pfcheck -o "$out/printf_host" test/qemu/printf_host.c
ok $? "the host's side builds (test/qemu/printf_host.c)"
BOARD=$board QEMU_TIMEOUT=120 scripts/qemu-run.sh build/$board/pfcheck.elf > "$out/run.log" 2>&1
ok $? "pfcheck runs on $board"
con_of pfcheck < "$out/run.log" | grep '^pf ' > "$out/board.txt"
# x86-pc's own C runtime prints no floating point (docs/applications.md): its line says so.
if grep -q '^pf float: none$' "$out/board.txt"; then
    "$out/printf_host" -i > "$out/host.txt"
    echo "# $board: no floating point in its C library; the integer cases only"
else
    "$out/printf_host" > "$out/host.txt"
fi
nb=$(grep -c '^pf [0-9]' "$out/board.txt"); nh=$(grep -c '^pf [0-9]' "$out/host.txt")
[ "$nb" = "$nh" ] && [ "$nb" -gt 20 ]; ok $? "the board printed every case ($nb of $nh)"
diff "$out/host.txt" "$out/board.txt" > "$out/diff.txt"
rc=$?
sed 's/^/# /' "$out/diff.txt" | head -20
ok $rc "every line is the host's (%llu, %lld, %llx, %p, %zu, widths, flags$(grep -q 'float: none' "$out/board.txt" || echo ', %f %e %g %a'))"
echo "1..$n"
