#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Lists the C functions longer than a limit, longest first, as "lines function file:line".
# What it reads: every .c file git tracks outside test/ (the unit tests, fuzzers and QEMU test
# programs are tables of cases, not code a maintainer follows). No .c file in the tree is
# generated; generated sources are written under build/ and not tracked. A function's length is
# its last line minus its first plus one, as universal-ctags sees them (Debian's
# universal-ctags package; scripts/setup.sh --test installs it).
#   scripts/long-functions.sh                 list those over 80 lines
#   scripts/long-functions.sh --limit N       over N lines instead
#   scripts/long-functions.sh --max M         also exit 1 when more than M are listed
# It reads the git work tree it is run in. docs/ARCHITECTURE.md ("Function length") says the
# rule; test/tools/test_long_functions.sh holds the tree to it.
set -eu

limit=80 max=
while [ $# -gt 0 ]; do
    case "$1" in
    --limit) limit=${2:?--limit needs a number}; shift 2 ;;
    --max) max=${2:?--max needs a number}; shift 2 ;;
    -h|--help) sed -n '3,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "long-functions: unknown argument '$1' (try --help)" >&2; exit 2 ;;
    esac
done
case "$limit$max" in *[!0-9]*) echo "long-functions: --limit and --max take numbers" >&2; exit 2 ;; esac

ctags=$(command -v ctags-universal || command -v universal-ctags || true)
[ -n "$ctags" ] || { echo "long-functions: universal-ctags is missing (scripts/setup.sh --test)" >&2; exit 2; }

cd "$(git rev-parse --show-toplevel)"
list=$(git ls-files -- '*.c' ':!:test/' |
    xargs "$ctags" --languages=C --kinds-C=f --fields=+ne -x --_xformat='%{line} %{end} %N %F' |
    awk -v lim="$limit" '$2 != "" { n = $2 - $1 + 1; if (n > lim) printf "%d %s %s:%d\n", n, $3, $4, $1 }' |
    sort -k1,1nr -k3)
count=0
[ -z "$list" ] || count=$(printf '%s\n' "$list" | wc -l)
[ -z "$list" ] || printf '%s\n' "$list"
echo "long-functions: $count functions over $limit lines"
if [ -n "$max" ] && [ "$count" -gt "$max" ]; then
    echo "long-functions: more than $max; cut the longest where they hold several jobs" >&2
    exit 1
fi
