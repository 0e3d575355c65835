#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# D's errno at kercall:::return (docs/d-probes.md): user/apps/kcerr makes kernel calls that
# fail and prints each with the errno its own library got; test/qemu/d/kcall-errno.d prints
# probefunc and errno for each of its failing returns, live on the board (make dtrace
# APPS=kcerr) and over the same boot's capture (dtrace -i). Both must list kcerr's own lines,
# the independent truth, and every call of kcerr's that succeeded must have errno 0.
#   test/qemu/test_dtrace_errno.sh BOARD HOSTDIR
# Prints TAP.
set -u
board=$1
h=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
. scripts/console.sh
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
. test/qemu/tap_lib.sh
dump() { sed 's/^/# /' "$1" | tail -${2:-30}; }
script=test/qemu/d/kcall-errno.d

CON_RAW=$out/raw.log TRACE_FILE=$out/kcerr.kev QEMU_TIMEOUT=180 \
    make -s BOARD="$board" dtrace APPS=kcerr S=$script >"$out/dt.log" 2>&1
rc=$?
dump "$out/dt.log" 20
ok $rc "make BOARD=$board dtrace APPS=kcerr S=$script exits 0"
grep -qE "$(con_from kcerr)kcerr: done, 10 failures$" "$out/raw.log"
ok $? "kcerr made its 10 failing calls"

# The truth: what kcerr says each failing call returned
con_of kcerr <"$out/raw.log" | grep -E '^failed [A-Za-z]+ [0-9]+$' | sort >"$out/want.txt"
[ "$(wc -l <"$out/want.txt")" = 10 ] && ! grep -q ' 0$' "$out/want.txt"
ok $? "kcerr printed 10 failures, each with its errno"

con_of dtrace <"$out/raw.log" | grep -E '^failed ' | sort >"$out/live.txt"
diff "$out/want.txt" "$out/live.txt" >"$out/live.diff"
r=$?
dump "$out/live.diff" 10
ok $r "live on $board: errno at each failing kercall:::return is the one kcerr got"
con_of dtrace <"$out/raw.log" | grep -qE '^errno 0: [1-9][0-9]* succeeded, 0 failed$'
ok $? "live: kcerr's calls that succeeded have errno 0, and none that failed does"

"$h/dtrace" -s $script -i "$out/kcerr.kev" >"$out/cap.txt" 2>"$out/cap.err"
rc=$?
dump "$out/cap.err" 5
ok $rc "dtrace -i over the same boot's capture exits 0"
grep -E '^failed ' "$out/cap.txt" | sort >"$out/cap.d"
diff "$out/want.txt" "$out/cap.d" >"$out/cap.diff"
r=$?
dump "$out/cap.diff" 10
ok $r "over the capture: the same calls and errnos as kcerr's and as live"
grep -qE '^errno 0: [1-9][0-9]* succeeded, 0 failed$' "$out/cap.txt"
ok $? "over the capture: successes have errno 0, and no failure does"
echo "1..$n"
