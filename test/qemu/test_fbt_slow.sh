#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fbt:::entry on every kernel function under a slow clock (-icount shift=6,sleep=off: an
# instruction is 64 ns, where the probes take more than half of a busy CPU: at 32 ns, since
# the hooks of the classes a program does not watch stay off, they took 40 % and said no
# slowdown, the tick's path being shorter): the
# board's dtrace says
# before the workload starts how many sites it placed, what a firing costs and how much slower
# the run will be (docs/fbt.md, "Errors"), and the run makes progress to its end. Two boots of
# the dtrace image running worker (which counts the primes below 200000):
#  - without fbt: worker's run time (from its first kernel call to its exit, D's timestamps);
#  - with every fbt:::entry: the sites line and the cost line come before any line of worker,
#    the sites are the entry probes the host's dtrace lists from the image's fbt table, worker
#    still finishes with python's count of primes, and the slowdown dtrace predicted is a
#    lower bound of the one worker's own run time shows (worker switches between its two
#    threads every tick, a longer traced path than dtrace's measuring loop has; within 2x).
#   test/qemu/test_fbt_slow.sh BUILD_DIR HOST_DIR     (BOARD in the environment)
set -u
B=$(cd "$1" && pwd); H=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/scripts/console.sh"
. "$here/test/qemu/tap_lib.sh"
board=${BOARD:-mps2-an385}
TAP_PREFIX="$board: "
img=$B/dtrace.elf
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "# files in $tmp"
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
echo "1..5"

T='kercall:::entry /execname == "worker" && !s/ { s = timestamp; }
proc:::exit /execname == "worker"/ { printf("WORK %d\n", (timestamp - s) / 1000000); }'
boot() { # boot OUT D-PROGRAM
    QEMU_ARGS="dtrace -c worker -n '$2'" QEMU_TIMEOUT=${QEMU_TIMEOUT:-400} \
        "$here/scripts/qemu-run.sh" "$img" -icount shift=6,sleep=off > "$tmp/$1" 2>&1
}
boot plain "$T"
rc1=$?
# (a line every 10 s of virtual time: the slow run shows progress to the hang detector)
boot fbt "fbt:::entry { @c[probefunc] = count(); } tick-10s { printf(\"ALIVE\\n\"); } $T"
rc2=$?
check "both boots ended normally (status $rc1 $rc2)" '[ $rc1 = 0 ] && [ $rc2 = 0 ]'
[ $rc2 = 0 ] || grep -v 'pulse to' "$tmp/fbt" | tail -6 | sed 's/^/# /'

con_of dtrace < "$tmp/fbt" > "$tmp/fbt.d"
sites=$(sed -n 's/^dtrace: \([0-9]*\) fbt probe sites placed in [0-9]* us$/\1/p' "$tmp/fbt.d")
cost=$(grep -m1 "^dtrace: $sites fbt probe sites placed: a firing costs about [0-9]* us" "$tmp/fbt.d")
first=$(grep -n -m1 -E '^(2/worker|[0-9]+/worker):' "$tmp/fbt" | cut -d: -f1)
costline=$(grep -n -m1 'fbt probe sites placed: a firing costs' "$tmp/fbt" | cut -d: -f1)
check "the sites line and the cost line come before worker's first line (${cost:-no cost line})" \
    '[ -n "$sites" ] && [ -n "$cost" ] && [ -n "$first" ] && [ "$costline" -lt "$first" ]'

listed=$("$H/dtrace" --kernel "$img" -l -n 'fbt:::entry' 2>/dev/null | grep -c ' entry$')
check "the $sites sites are the $listed entry probes the host's dtrace lists from the image's fbt table" \
    '[ -n "$sites" ] && [ "$sites" = "$listed" ]'

want=$(python3 -c 'n=200000; s=bytearray([1])*n; s[0]=s[1]=0
for i in range(2, int(n**0.5)+1):
    if s[i]: s[i*i::i] = bytearray(len(s[i*i::i]))
print(sum(s))')
got=$(con_of worker < "$tmp/fbt" | sed -n 's/^worker: \([0-9]*\) primes below 200000$/\1/p')
check "under every probe worker ran to its end: $got primes, python's $want" '[ "$got" = "$want" ]'

pred=$(sed -n 's/.*the run will be at least \([0-9]*\) times slower.*/\1/p' "$tmp/fbt.d" | head -1)
t1=$(con_of dtrace < "$tmp/plain" | sed -n 's/.*WORK \([0-9]*\)$/\1/p')
t2=$(sed -n 's/.*WORK \([0-9]*\)$/\1/p' "$tmp/fbt.d")
check "the predicted slowdown, at least ${pred:-?}x, holds for worker's own (${t2:-?} ms against ${t1:-?} ms), within 2x" \
    '[ -n "$pred" ] && [ -n "$t1" ] && [ -n "$t2" ] && [ "$t1" -gt 0 ] && [ "$pred" -ge 2 ] &&
     [ $((t2 * 2)) -ge $((t1 * pred)) ]'
