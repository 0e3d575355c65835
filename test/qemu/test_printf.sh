#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The printf family and the C99 headers a program includes, on one board, against the host's:
# pfcheck (user/apps/pfcheck) prints the cases of printf_cases.h (64-bit integers, %p, %z,
# widths, flags, floating point where the library has it) and of c99_cases.h (<inttypes.h>'s
# PRI macros, <stdint.h>, <stdbool.h>, <limits.h>, <time.h>, <errno.h>, <string.h>,
# <stdlib.h>, <stdio.h>, <ctype.h>, <assert.h>) with the board's C library; printf_host.c
# prints the same cases with the host's C library, the truth. Every line must be the same.
#   test/qemu/test_printf.sh BOARD [BUILD_DIR]
# BUILD_DIR: the image's build directory, build/BOARD by default (build/BOARD-newlib for the
# programs linked with newlib, LIBC=newlib).
# Prints TAP.
set -u
board=$1
dir=${2:-build/$board}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
. test/qemu/tap_lib.sh
. scripts/console.sh
what=$board${2:+ ($(basename "$dir"))}

cc -std=gnu11 -Wall -Wextra -Werror -Iuser/apps/pfcheck -o "$out/printf_host" test/qemu/printf_host.c
ok $? "the host's side builds (test/qemu/printf_host.c)"
BOARD=$board QEMU_TIMEOUT=120 scripts/qemu-run.sh "$dir/pfcheck.elf" > "$out/run.log" 2>&1
ok $? "pfcheck runs on $what"
con_of pfcheck < "$out/run.log" | grep -E '^(pf|c99) ' > "$out/board.txt"
# x86-pc's own C runtime prints no floating point (docs/applications.md): its line says so.
# (TZ=UTC: a board has no time zone, and c99_cases.h's mktime() reads local time.)
if grep -q '^pf float: none$' "$out/board.txt"; then
    TZ=UTC "$out/printf_host" -i > "$out/host.txt"
    echo "# $what: no floating point in its C library; the integer cases only"
else
    TZ=UTC "$out/printf_host" > "$out/host.txt"
fi
nb=$(grep -c '^pf [0-9]' "$out/board.txt"); nh=$(grep -c '^pf [0-9]' "$out/host.txt")
cb=$(grep -c '^c99 [0-9]' "$out/board.txt"); ch=$(grep -c '^c99 [0-9]' "$out/host.txt")
[ "$nb" = "$nh" ] && [ "$nb" -gt 20 ] && [ "$cb" = "$ch" ] && [ "$cb" -gt 40 ]
ok $? "the board printed every case (printf: $nb of $nh, C99 headers: $cb of $ch)"
grep '^pf ' "$out/host.txt" | diff - <(grep '^pf ' "$out/board.txt") > "$out/diff.txt"
rc=$?
sed 's/^/# /' "$out/diff.txt" | head -20
ok $rc "every printf line is the host's (%llu, %lld, %llx, %p, %zu, widths, flags$(grep -q 'float: none' "$out/board.txt" || echo ', %f %e %g %a'))"
grep '^c99 ' "$out/host.txt" | diff - <(grep '^c99 ' "$out/board.txt") > "$out/diff.txt"
rc=$?
sed 's/^/# /' "$out/diff.txt" | head -20
ok $rc "every C99 header line is the host's (PRIu64 and the other PRI macros, limits, ctype, string, stdlib, strftime, mktime, errno, assert)"
echo "1..$n"
