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
. "$(dirname "$0")/../../scripts/console.sh"   # each line checked comes from its program
n=0
check() {
    n=$((n + 1))
    if printf '%s\n' "$out" | grep -qE "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fi
}
for p in worker driver ticker client; do
    check "$p finished" "$(con_from init)init: $p \(pid [0-9]+\) finished$"
done
check "driver took 30 device interrupts" "$(con_from driver)driver: 30 device interrupts handled in [0-9]+ ms at [0-9]+ Hz$"
# ... and no faster than its device was programmed to interrupt (30 interrupts take at least
# 29 periods: a line delivered twice took them in half the time).
n=$((n + 1))
drv=$(printf '%s\n' "$out" | sed -n 's/.*driver: 30 device interrupts handled in \([0-9]*\) ms at \([0-9]*\) Hz$/\1 \2/p')
if [ -n "$drv" ] && [ "${drv#* }" = 0 ]; then
    echo "ok $n - driver's device keeps no known rate on this board's QEMU model # SKIP"
elif [ -n "$drv" ] && [ $(( ${drv% *} * ${drv#* } )) -ge $(( 29 * 1000 - ${drv#* } )) ]; then
    echo "ok $n - driver's 30 interrupts took ${drv% *} ms at ${drv#* } Hz (29 periods or more)"
else echo "not ok $n - driver's 30 interrupts came faster than its device's rate (${drv:-no report})"; fi
check "ticker got 40 timer pulses" "$(con_from ticker)ticker: 40 ticks in [0-9]+ ms$"
check "client made 200 requests" "$(con_from client)client: 200 requests, mean round trip [0-9]+ us"
check "server counted reads, writes, samples and ticks" \
    "$(con_from init)init: srv handled 180 reads, 20 writes, 30 device samples, [34][0-9] ticks$"
check "no process was killed" "$(con_from init)init: demo system done, 0 failures$"
check "the kernel says pid 1 exited with status 0" "$CON_KERNEL""pid 1 exited with status 0"

n=$((n + 1))
if [ $rc = 0 ]; then echo "ok $n - demo halted with status 0"; else echo "not ok $n - demo halted with status $rc"; fi
if printf '%s\n' "$out" | grep -qE "$CON_KERNEL.*killed"; then echo "not ok $((n + 1)) - a process was killed"; n=$((n + 1)); fi
# Several CPUs (the board's QEMU runs more than one): the demo's programs ran on every CPU, and
# the report draws a timeline row per CPU.
ncpu=$(printf '%s\n' "$out" | sed -n 's/^kernel: \([0-9]*\) CPUs$/\1/p')
host=$(dirname "$img")/../host
kev=$(dirname "$img")/demo-test.kev
if [ -n "$ncpu" ] && [ "$ncpu" -gt 1 ] && [ -x "$host/traceprinter" ] && [ -x "$host/kevreport" ]; then
    busy=$("$host/traceprinter" -m "$kev" | grep THRUNNING | grep -v ' pid:0 ' | awk '{print $2}' | sort -u | wc -l)
    n=$((n + 1))
    if [ "$busy" = "$ncpu" ]; then echo "ok $n - the demo's programs ran on all $ncpu CPUs"
    else echo "not ok $n - the demo's programs ran on $busy of $ncpu CPUs"; fi
    rows=$("$host/kevreport" -o "${kev%.kev}.html" "$kev" >/dev/null 2>&1 && python3 -c '
import json, re, sys
d = open(sys.argv[1]).read()
j = json.loads(re.search(r"<script id=\"kev-data\" type=\"application/json\">(.*?)</script>", d, re.S).group(1))
print(len({s[4] for s in j["timeline"]["seg"] if s[3] == 1}))' "${kev%.kev}.html")
    n=$((n + 1))
    if [ "$rows" = "$ncpu" ]; then echo "ok $n - kevreport draws a timeline row for each of the $ncpu CPUs"
    else echo "not ok $n - kevreport draws ${rows:-no} CPU rows for $ncpu CPUs"; fi
fi
