#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The long-function rule (docs/ARCHITECTURE.md, "Function length"): at most 30 functions of the
# tracked .c files outside test/ run past 100 lines. The checker, scripts/long-functions.sh, is
# first held against a scratch git tree whose functions this test writes itself with known
# lengths (100 and 101 lines, one in test/ and one in an untracked file), then run on the tree.
# Prints TAP.
#   test/tools/test_long_functions.sh
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/test/tools/tap.sh"
need ctags-universal
scratch long-functions "$root/build/host-test"

# fn NAME LINES: a C function of exactly LINES lines (its header line to its closing brace).
fn() {
    echo "int $1(int x);"
    echo "int $1(int x)"
    echo "{"
    local i
    for ((i = 3; i < $2; i++)); do echo "    x += $i;"; done
    echo "    return x; }"
}
git init -q "$dir/tree"
mkdir -p "$dir/tree/test"
{ fn f_short 100; fn f_long 101; } >"$dir/tree/a.c"
fn in_test 150 >"$dir/tree/test/t.c"
git -C "$dir/tree" add a.c test/t.c
fn untracked 150 >"$dir/tree/b.c"
out=$(cd "$dir/tree" && "$root/scripts/long-functions.sh" 2>&1)
[ "$(printf '%s\n' "$out" | head -1)" = "101 f_long a.c:103" ] &&
    printf '%s\n' "$out" | grep -qx 'long-functions: 1 functions over 100 lines'
check "a 101-line function listed with its length, one of 100 lines, test/ and untracked files not" [ $? = 0 ]
(cd "$dir/tree" && "$root/scripts/long-functions.sh" --max 1 >/dev/null 2>&1)
check "--max 1 passes with one" [ $? = 0 ]
(cd "$dir/tree" && "$root/scripts/long-functions.sh" --max 0 >/dev/null 2>&1)
check "--max 0 fails with one" [ $? = 1 ]
(cd "$dir/tree" && "$root/scripts/long-functions.sh" --limit 99 2>&1) | grep -q '^100 f_short a\.c:2$'
check "--limit 99 lists the 100-line one too" [ $? = 0 ]

out=$(cd "$root" && scripts/long-functions.sh --max 30 2>&1); rc=$?
check "the tree: $(printf '%s\n' "$out" | grep '^long-functions: [0-9]') (at most 30)" [ $rc = 0 ]
[ $rc = 0 ] || printf '%s\n' "$out" | sed 's/^/# /'
finish
