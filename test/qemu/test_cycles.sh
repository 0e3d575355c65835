#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ClockCycles() on one board (user/apps/cyccheck): where the CPU lets a program read the
# kernel's counter (qemu-virt-a53, raspi3b: CNTVCT_EL0; x86-pc: rdtsc) the read is the kernel's
# time, at its rate, without a kernel call; elsewhere (the Cortex-M boards) it is a kernel call.
# Truths: the kernel's own read of the counter (the ClockCycles kernel call, which must lie
# between two user reads), the kernel's ClockTime() across a sleep (the same rate within 0.5%),
# and the capture's kernel calls (dtrace -i over the boot's trace) against the reads the
# program made.
#   test/qemu/test_cycles.sh BOARD HOSTDIR
# Prints TAP.
set -u
board=$1
h=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
. test/qemu/tap_lib.sh
. scripts/console.sh
case $board in
    qemu-virt-a53|raspi3b|x86-pc) user=1 ;;
    *) user=0 ;;
esac

img=build/$board/cyctest.elf
# In exact mode (QEMU_ICOUNT=exact): the rate's two pairs of reads (ClockCycles, then
# ClockTime) are adjacent instructions only in the board's time. On the host's clock QEMU's
# counters run on while the host holds its thread, and under a neighbour's load a pair lay
# 1.9 ms apart (netduinoplus2: 203.19 ms of cycles against 201.29 of ClockTime, both from TIM2).
export QEMU_ICOUNT=exact
if [ "$board" = x86-pc ]; then
    BOARD=$board QEMU_ARGS="appinit cyccheck ;; tracelogger -d1 -u" QEMU_UART1=$out/t.uart \
        QEMU_TIMEOUT=120 scripts/qemu-run.sh $img > "$out/run.log" 2>&1
    rc=$?
    "$h/kevcapture" -q -o "$out/t.kev" "$out/t.uart" >> "$out/run.log" 2>&1 || rc=1
else
    BOARD=$board QEMU_ARGS="appinit cyccheck ;; tracelogger -d1 -f $out/t.kev" \
        QEMU_TIMEOUT=120 scripts/qemu-run.sh $img > "$out/run.log" 2>&1
    rc=$?
fi
con_of cyccheck < "$out/run.log" | grep '^cyc ' > "$out/cyc.txt"
sed 's/^/# /' "$out/cyc.txt"
ok $rc "cyctest boots on $board with a capture"
read -r u0 k u1 < <(sed -n 's/^cyc value: user \([0-9]*\) kernel \([0-9]*\) user \([0-9]*\)$/\1 \2 \3/p' "$out/cyc.txt")
[ -n "${k:-}" ] && [ "$u0" -le "$k" ] && [ "$k" -le "$u1" ]
ok $? "the kernel's read of the counter lies between two user reads ($u0 <= $k <= $u1)"
read -r dc dns cps < <(sed -n 's/^cyc rate: \([0-9]*\) cycles, \([0-9]*\) ns of ClockTime, \([0-9]*\) cycles a second$/\1 \2 \3/p' "$out/cyc.txt")
python3 -c "
dc, dns, cps = int('${dc:-0}'), int('${dns:-0}'), int('${cps:-0}')
ns = dc * 10**9 / cps if cps else 0
print('# %d cycles at %d Hz = %.0f ns; ClockTime moved %d ns' % (dc, cps, ns, dns))
raise SystemExit(0 if dns > 150000000 and abs(ns - dns) <= dns * 0.005 else 1)"
ok $? "across a 200 ms sleep the cycles at ClockCyclesPerSec give the kernel's ClockTime (0.5%)"
grep -q '^cyc busy: 1000 reads, 0 went back$' "$out/cyc.txt"; ok $? "1000 reads in a row never went back"
calls=$("$h/dtrace" -q -i "$out/t.kev" -n 'kercall::ClockCycles:entry /execname == "cyccheck"/ { @n = count(); } END { printa("calls %@d\n", @n); }' 2>&1 | sed -n 's/^calls //p')
calls=${calls:-0}
if [ $user = 1 ]; then
    [ "$calls" = 1 ]; ok $? "user-mode reads make no kernel call: the capture holds 1 ClockCycles call, the explicit kernel read (found $calls)"
else
    # 3 + 2 + 1000 reads and the explicit one: every read is a kernel call here.
    [ "$calls" -ge 1005 ]; ok $? "on $board every read is a kernel call: the capture holds them ($calls)"
fi
echo "1..$n"
