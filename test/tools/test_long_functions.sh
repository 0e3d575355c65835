#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The long-function rule (docs/ARCHITECTURE.md, "Function length"): of the tracked .c files
# outside test/, only the D VM's dispatch (dvm_run) runs past 80 lines. The checker,
# scripts/long-functions.sh, is first held against a scratch git tree whose functions this test
# writes itself with known lengths (80 and 81 lines, one in test/ and one in an untracked
# file), then run on the tree.
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
{ fn f_short 80; fn f_long 81; } >"$dir/tree/a.c"
fn in_test 150 >"$dir/tree/test/t.c"
git -C "$dir/tree" add a.c test/t.c
fn untracked 150 >"$dir/tree/b.c"
out=$(cd "$dir/tree" && "$root/scripts/long-functions.sh" 2>&1)
[ "$(printf '%s\n' "$out" | head -1)" = "81 f_long a.c:83" ] &&
    printf '%s\n' "$out" | grep -qx 'long-functions: 1 functions over 80 lines'
check "an 81-line function listed with its length, one of 80 lines, test/ and untracked files not" [ $? = 0 ]
(cd "$dir/tree" && "$root/scripts/long-functions.sh" --max 1 >/dev/null 2>&1)
check "--max 1 passes with one" [ $? = 0 ]
(cd "$dir/tree" && "$root/scripts/long-functions.sh" --max 0 >/dev/null 2>&1)
check "--max 0 fails with one" [ $? = 1 ]
(cd "$dir/tree" && "$root/scripts/long-functions.sh" --limit 79 2>&1) | grep -q '^80 f_short a\.c:2$'
check "--limit 79 lists the 80-line one too" [ $? = 0 ]

# The tree: over 80 lines only the D VM's dispatch (one case a line or two, read whole;
# ARCHITECTURE.md, "Function length"), no other.
allowed=" dvm_run "
out=$(cd "$root" && scripts/long-functions.sh 2>&1); rc=$?
long=$(printf '%s\n' "$out" | awk 'NF == 3 && $1 ~ /^[0-9]+$/ { print $2 }' | tr '\n' ' ')
other=$(for f in $long; do case $allowed in *" $f "*) ;; *) printf '%s ' "$f" ;; esac; done)
check "the tree: $(printf '%s\n' "$out" | grep '^long-functions: [0-9]'): ${long:-none}(no other than$allowed)" \
    test $rc = 0 -a -z "$other"
[ $rc = 0 ] || printf '%s\n' "$out" | sed 's/^/# /'
finish
