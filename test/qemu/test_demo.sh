#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Boots the demo system and checks what it reports: every program finished, the server saw
# traffic from each kind of client, and the system halted with status 0. Prints TAP.
set -u
img=$1
out=$(QEMU_ARGS="tracelogger -d1 -f $(dirname "$img")/demo-test.kev" QEMU_TIMEOUT=${QEMU_TIMEOUT:-90} \
      "$(dirname "$0")/../../scripts/qemu-run.sh" "$img" 2>&1)
rc=$?
printf '%s\n' "$out" | sed 's/^/# /'
n=0
check() {
    n=$((n + 1))
    if printf '%s\n' "$out" | grep -qE "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fi
}
for p in worker driver ticker client; do
    check "$p finished" "^init: $p \(pid [0-9]+\) finished$"
done
check "driver took 30 device interrupts" '^driver: 30 device interrupts handled$'
check "ticker got 40 timer pulses" '^ticker: 40 ticks in [0-9]+ ms$'
check "client made 200 requests" '^client: 200 requests, mean round trip [0-9]+ us'
check "server counted reads, writes, samples and ticks" \
    '^init: srv handled 180 reads, 20 writes, 30 device samples, [34][0-9] ticks$'
check "no process was killed" '^init: demo system done, 0 failures$'
n=$((n + 1))
if [ $rc = 0 ]; then echo "ok $n - demo halted with status 0"; else echo "not ok $n - demo halted with status $rc"; fi
if printf '%s\n' "$out" | grep -q 'killed'; then echo "not ok $((n + 1)) - a process was killed"; fi
