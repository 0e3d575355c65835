#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The console's calls on several CPUs at once (smpstress's test 20, user/apps/smpstress/
# st_console.c): they run on the kernel lock's shared side under the console's own lock
# (kernel/kconsole.c), so two CPUs write at once. One boot under -icount (the program checks
# that the calls took no exclusive entry beyond the ticks) and one on the host's clock (the
# CPUs truly at once); on each, read off the raw console, every DebugWrite line of each of
# CPUs 1..3 (CON_LINES each, st_console.h) appears exactly once, whole, with the process's
# prefix "<pid>/smpstress: ", and no other line holds a piece of one (a line glued to another's
# text, or cut); and main's printf lines (written alone, a character a call) are all there.
#   test/qemu/test_console_cpus.sh BUILD_DIR      (a board with 4 CPUs)
# Prints TAP.
set -u
b=$(cd "$1" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
board=$(basename "$b")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
. "$(dirname "$0")/tap_lib.sh"
lines=$(sed -n 's/^#define CON_LINES \([0-9]*\)u.*/\1/p' "$root/user/apps/smpstress/st_console.h")
payload=$(sed -n 's/^#define CON_PAYLOAD "\(.*\)"$/\1/p' "$root/user/apps/smpstress/st_console.c")
for clock in icount host; do
    if [ $clock = icount ]; then
        (BOARD=$board QEMU_SMP=4 QEMU_ARGS="smpstress icount console" QEMU_TIMEOUT=120 \
            "$root/scripts/qemu-run.sh" "$b/smpstress.elf" -icount shift=0,sleep=off \
            > "$out/$clock.log" 2>&1)
    else
        (BOARD=$board QEMU_SMP=4 QEMU_ICOUNT=none QEMU_ARGS="smpstress console" QEMU_TIMEOUT=120 \
            "$root/scripts/qemu-run.sh" "$b/smpstress.elf" > "$out/$clock.log" 2>&1)
    fi
    rc=$?
    tr -d '\r' < "$out/$clock.log" > "$out/$clock.txt"
    grep -a 'ok 20 - ' "$out/$clock.txt" | sed 's/^/# /'
    [ $rc = 0 ] && grep -aq '/smpstress: ok 20 - ' "$out/$clock.txt"
    ok $? "$board ($clock): smpstress's console test passed its own checks (status $rc)"
    # every expected line exactly once, whole
    awk -v n="$lines" -v p="$payload" '
        /st_con cpu=/ {
            if (match($0, /^[0-9]+\/smpstress: st_con cpu=[1-3] line=[0-9]+ /) &&
                substr($0, RLENGTH + 1) == p) {
                split(substr($0, index($0, "cpu=") + 4), f, /[ =]/)
                seen[f[1] " " f[3]]++
            } else bad++
        }
        END {
            for (c = 1; c <= 3; c++) for (i = 0; i < n; i++) {
                k = c " " i
                if (seen[k] != 1) { missing++; if (missing <= 3) printf "# line cpu=%d line=%d seen %d times\n", c, i, seen[k] }
            }
            printf "# %d malformed st_con lines\n", bad
            exit (bad > 0 || missing > 0)
        }' "$out/$clock.txt"
    ok $? "$board ($clock): each of CPUs 1..3's $lines DebugWrite lines on the console exactly once, whole, with its prefix"
    got=$(grep -acE "^[0-9]+/smpstress: st_conc line=[0-9]+ $payload\$" "$out/$clock.txt")
    [ "$got" = $((lines / 10)) ]
    ok $? "$board ($clock): main's $((lines / 10)) printf lines whole ($got)"
done
echo "1..$n"
