#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# walltimestamp live on a board with semihosting is the host's date (docs/d-probes.md): the
# kernel reads the host's clock when the program starts (SYS_TIME) and counts from the boot.
# The truth is the host's own `date +%s` read before and after the boot: BEGIN's
# walltimestamp, in seconds, lies between them (a second's slack for SYS_TIME's whole
# seconds), and it advances with timestamp (their difference is the same at BEGIN and END).
#   test/qemu/test_dtrace_walltime.sh BOARD HOSTDIR
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

cat >"$out/wall.d" <<'D'
#pragma D option quiet
BEGIN { printf("W %d %d\n", walltimestamp / 1000000000, walltimestamp - timestamp); }
END { printf("E %d\n", walltimestamp - timestamp); }
D
before=$(date +%s)
CON_RAW=$out/raw.log TRACE_FILE=$out/wall.kev QEMU_TIMEOUT=180 make -s BOARD="$board" dtrace APPS=kcerr S="$out/wall.d" \
    >"$out/dt.log" 2>&1
rc=$?
after=$(date +%s)
sed 's/^/# /' "$out/dt.log" | tail -5
ok $rc "make BOARD=$board dtrace with walltimestamp at BEGIN and END exits 0"
read -r _ secs base < <(con_of dtrace <"$out/raw.log" | grep -E '^W [0-9]+ [0-9]+$' | head -1)
ok_range=0
[ -n "${secs:-}" ] && [ "$secs" -ge $((before - 1)) ] && [ "$secs" -le $((after + 1)) ] && ok_range=1
[ $ok_range = 1 ]; ok $? "BEGIN's walltimestamp, ${secs:-none} s, is the host's date: between $before and $after"
end=$(con_of dtrace <"$out/raw.log" | sed -n 's/^E \([0-9]*\)$/\1/p' | head -1)
[ -n "$end" ] && [ "$end" = "${base:-x}" ]
ok $? "walltimestamp - timestamp is one base at BEGIN and END (${base:-none}, ${end:-none})"
echo "1..$n"
