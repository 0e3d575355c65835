#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pid globs (docs/pid.md): a description of many functions (pid$target:client::entry, or
# a.out, DTrace's name for the target's main program) places every function it can and says,
# in one line with a count, how many it left out; a description naming one function that
# cannot be placed is still an error. The truth is readelf's list of the program's functions
# (STT_FUNC symbols with a size): the probes listed plus those left out are all of them.
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
echo "1..$n"
