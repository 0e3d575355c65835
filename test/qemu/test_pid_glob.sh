#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pid globs (docs/pid.md): a description of many functions (pid$target:client::entry, or
# a.out, DTrace's name for the target's main program) places every function it can and says,
# in one line with a count, how many it left out; a description naming one function that
# cannot be placed is still an error. The truth is readelf's list of the program's functions
# (STT_FUNC symbols with a size): the probes listed plus those left out are all of them.
# Past the kernel's site table (1024 pid probes at once), a glob over several programs lists
# exactly 1024, each one of those the programs list one by one, and says why it left out the
# rest.
#   test/qemu/test_pid_glob.sh BUILD_DIR HOST_DIR
# Prints TAP.
set -u
b=$1
h=$2
elf=$b/dtrace/client.elf
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap_lib.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

readelf -sW "$elf" | awk '$4 == "FUNC" && $3 != "0" { print $8 }' | sort -u >"$out/funcs.txt"
nf=$(wc -l <"$out/funcs.txt")
[ "$nf" -gt 10 ]; ok $? "readelf lists client's $nf functions"
for mod in client a.out; do
    "$h/dtrace" -l --elf "$elf" -n "pid\$target:$mod::entry" >"$out/l.txt" 2>"$out/l.err"
    rc=$?
    sed 's/^/# /' "$out/l.err"
    ok $rc "dtrace -l pid\$target:$mod::entry exits 0"
    awk 'NR > 1 { print $4 }' "$out/l.txt" | sort -u >"$out/placed.txt"
    skipped=$(sed -n 's/^dtrace: \([0-9]*\) pid probes* matched by a glob not placed (\([^:]*\): .*/\1 \2/p' "$out/l.err")
    [ "$(grep -c 'not placed' "$out/l.err")" = 1 ] && [ -n "$skipped" ]
    ok $? "$mod: one line says how many it left out and names one (${skipped:-none})"
    np=$(wc -l <"$out/placed.txt")
    [ $((np + ${skipped%% *})) = "$nf" ] && ! grep -qx "${skipped#* }" "$out/placed.txt" &&
        grep -qx "${skipped#* }" "$out/funcs.txt"
    ok $? "$mod: $np placed + ${skipped%% *} left out = readelf's $nf functions, the one named among those left out"
    comm -13 "$out/funcs.txt" "$out/placed.txt" | grep -q . && r=1 || r=0
    ok $r "$mod: every probe placed is one of readelf's functions"
done
one=${skipped#* }
"$h/dtrace" -l --elf "$elf" -n "pid\$target:client:$one:entry" >"$out/one.txt" 2>"$out/one.err"
rc=$?
sed 's/^/# /' "$out/one.err"
[ $rc = 1 ] && grep -q "$one cannot be probed: " "$out/one.err"
ok $? "pid\$target:client:$one:entry, one function that cannot be placed, is an error saying why"
"$h/dtrace" -l --elf "$elf" -n 'pid$target:a.out:main:entry' >"$out/main.txt" 2>&1
[ "$(awk 'NR > 1 { print $3, $4 }' "$out/main.txt")" = "client main" ]
ok $? "pid\$target:a.out:main:entry is client's main"
# the site table's size: every program of the image, entry and return, more than 1024
all=() alone=0
for e in "$b"/dtrace/*.elf; do
    all+=(--elf "$e")
    "$h/dtrace" -l --elf "$e" -n 'pid$target:a.out::entry,pid$target:a.out::return' \
        2>"$out/one.err" | awk 'NR > 1 { print $3, $4, $5 }' >>"$out/union.txt"
    grep -q 'kernel places' "$out/one.err" && alone=1
done
"$h/dtrace" -l "${all[@]}" -n 'pid$target:::entry,pid$target:::return' 2>"$out/all.err" |
    awk 'NR > 1 { print $3, $4, $5 }' >"$out/all.txt"
sed 's/^/# /' "$out/all.err"
nu=$(wc -l <"$out/union.txt") na=$(wc -l <"$out/all.txt")
[ "$alone" = 0 ] && [ "$nu" -gt 1024 ] && [ "$na" = 1024 ] &&
    grep -q 'not placed (.*: more pid probes than the kernel places at once (1024))$' "$out/all.err" &&
    [ "$(grep -c 'not placed' "$out/all.err")" = 1 ]
ok $? "every program's entries and returns ($nu probes, each program alone under 1024): $na listed, the line left out says the kernel's 1024"
sort "$out/union.txt" >"$out/union.s"
sort "$out/all.txt" | comm -23 - "$out/union.s" | grep -q . && r=1 || r=0
ok $r "each of the 1024 is one its program lists alone"
echo "1..$n"
