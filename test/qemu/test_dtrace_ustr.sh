#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# D reads a string user event's text (docs/d-probes.md, "User events"): user/apps/ustr logs
# known texts with trace_logf and prints each on its console; test/qemu/d/user-text.d prints
# copyinstr(arg1) live on the board (make dtrace APPS=ustr) and over the same boot's capture
# (dtrace -i). Both must equal the program's own lines, the independent truth, with the long
# text cut to strsize - 1 bytes as D cuts, and the two-word event's words as its arguments.
#   test/qemu/test_dtrace_ustr.sh BOARD HOSTDIR
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
script=test/qemu/d/user-text.d
strsize=64

CON_RAW=$out/raw.log TRACE_FILE=$out/ustr.kev QEMU_TIMEOUT=180 \
    make -s BOARD="$board" dtrace APPS=ustr S=$script D_OPTS="-q -x strsize=$strsize" \
    >"$out/dt.log" 2>&1
rc=$?
dump "$out/dt.log" 20
ok $rc "make BOARD=$board dtrace APPS=ustr S=$script exits 0"
grep -qE "$(con_from ustr)ustr: done \(all logged\)$" "$out/raw.log"
ok $? "ustr logged its events"

# The truth: what ustr says it logged, each text cut to strsize - 1 bytes (D's copyinstr).
con_of ustr <"$out/raw.log" | sed -n 's/^logged //p' |
    awk -v max=$((strsize - 1)) '{ i = index($0, ": "); print "D " substr($0, 1, i + 1) substr($0, i + 2, max) }' \
    >"$out/want.txt"
[ "$(wc -l <"$out/want.txt")" = 4 ]; ok $? "ustr printed its 4 events"
long=$(con_of ustr <"$out/raw.log" | sed -n 's/^logged 202: //p')
[ ${#long} -gt $((strsize - 1)) ]; ok $? "its long text (${#long} bytes) is longer than strsize - 1"

con_of dtrace <"$out/raw.log" | grep -E '^D [0-9]+: ' >"$out/live.txt"
diff "$out/want.txt" "$out/live.txt" >"$out/live.diff"
r=$?
dump "$out/live.diff" 10
ok $r "live on $board: D's copyinstr(arg1) gives the texts ustr logged (cut at strsize), and trace_logi's words"

"$h/dtrace" -q -x strsize=$strsize -s $script -i "$out/ustr.kev" >"$out/cap.txt" 2>"$out/cap.err"
rc=$?
dump "$out/cap.err" 5
ok $rc "dtrace -i over the same boot's capture exits 0"
grep -E '^D [0-9]+: ' "$out/cap.txt" >"$out/cap.d"
diff "$out/want.txt" "$out/cap.d" >"$out/cap.diff"
r=$?
dump "$out/cap.diff" 10
ok $r "over the capture: the same lines as ustr's and as live"
echo "1..$n"
