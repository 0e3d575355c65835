#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# raise( ) (docs/d-subset.md): the consumer signals the process that fired the probe, as
# DTrace's raise( ) signals the current process. This kernel's one signal is the kill
# (ProcKill, KSIG_KILL 9). Boots of the dtrace image, the board's dtrace running worker (which
# counts the primes below 200000 and prints the count):
#  - raise(SIGKILL) at worker's ThreadCreate: worker's wait status, as ProcWait gives it to
#    dtrace, is "killed by signal 9", the pid is the one D printed at the firing, the kernel
#    says dtrace killed it, and worker never printed its count;
#  - raise(2): refused against the clause's probe (no such signal here), and worker runs to its
#    end: its count is the number of primes below 200000 that the host's python computes;
#  - without -w: refused as DTrace refuses destructive actions, exit status 1.
#   test/qemu/test_d_raise.sh BUILD_DIR HOST_DIR     (BOARD in the environment)
set -u
B=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/scripts/console.sh"
. "$here/test/qemu/tap_lib.sh"
board=${BOARD:-mps2-an385}
TAP_PREFIX="$board: "
img=$B/dtrace.elf
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "# files in $tmp"
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
echo "1..6"

boot() { # boot OUT DTRACE-ARGS...: the dtrace image with that command line
    local out=$1
    shift
    QEMU_ARGS="$*" QEMU_ICOUNT=1 QEMU_TIMEOUT=${QEMU_TIMEOUT:-200} \
        "$here/scripts/qemu-run.sh" "$img" > "$tmp/$out" 2>&1
}

boot kill "dtrace -w -q -x switchrate=10ms -c worker -n 'kercall::ThreadCreate:entry /execname == \"worker\"/ { printf(\"RAISE %d\\n\", pid); raise(SIGKILL); }'"
rc=$?
fired=$(con_of dtrace < "$tmp/kill" | sed -n 's/^RAISE \([0-9]*\)$/\1/p' | head -1)
check "raise(SIGKILL): the boot ended normally (status $rc), the clause fired in worker (pid ${fired:-none})" \
    '[ $rc = 0 ] && [ -n "$fired" ]'
con_of dtrace < "$tmp/kill" | grep -qx "dtrace: pid $fired (worker) killed by signal 9" &&
    grep -q "^kernel: process $fired (worker) killed by process [0-9]* (dtrace)$" "$tmp/kill"
ok $? "worker's wait status is killed by signal 9, sent by dtrace to the pid that fired"
! con_of worker < "$tmp/kill" | grep -q 'primes below'
ok $? "worker never printed its count"
[ -n "${fired:-}" ] || tail -6 "$tmp/kill" | sed 's/^/# /'

want=$(python3 -c 'n=200000; s=bytearray([1])*n; s[0]=s[1]=0
for i in range(2, int(n**0.5)+1):
    if s[i]: s[i*i::i] = bytearray(len(s[i*i::i]))
print(sum(s))')
boot other "dtrace -w -q -x switchrate=10ms -c worker -n 'kercall::ThreadCreate:entry /execname == \"worker\"/ { raise(2); }'"
rc=$?
con_of dtrace < "$tmp/other" | grep -q "error on enabled probe ID 1 (ID [0-9]*: kercall::ThreadCreate:entry): raise(2) of pid [0-9]* failed: this kernel's only signal is SIGKILL (9)"
ok $? "raise(2): refused against the clause's probe, saying why"
got=$(con_of worker < "$tmp/other" | sed -n 's/^worker: \([0-9]*\) primes below 200000$/\1/p')
check "and worker ran to its end: $got primes below 200000, as python counts them ($want) (status $rc)" \
    '[ $rc = 0 ] && [ "$got" = "$want" ]'

boot nodestr "dtrace -q -c worker -n 'BEGIN { raise(SIGKILL); }'"
rc=$?
con_of dtrace < "$tmp/nodestr" | grep -qx 'dtrace: could not enable tracing: Destructive actions not allowed' &&
    grep -q '^kernel: pid 1 exited with status 1; halting$' "$tmp/nodestr"
ok $? "without -w: Destructive actions not allowed, dtrace's status 1 (boot $rc)"
