#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Tells a Cortex-M board's missing ticks that are QEMU's from the kernel's. Without -icount,
# QEMU 7.2 runs SysTick's expiry (hw/timer/armv7m_systick.c systick_timer_tick, a QEMUTimer on
# the virtual clock, which is the host's clock while the VM runs) in its main-loop thread, and
# the guest in a thread of its own: when the host does not schedule the main-loop thread, the
# guest runs on with no SysTick for as long, then that thread fires every period missed at once
# (one pending exception: the kernel sees one late tick). docs/profiling.md, "When QEMU
# withholds the tick". This reads QEMU's own log of the boot, made with
#     -trace systick_timer_tick -trace nvic_acknowledge_irq -trace runstate_set
#     -trace gdbstub_op_exiting -msg timestamp=on -D FILE
# and prints the longest stall: the longest time, by the host's clock, that the board ran
# (runstate "running") without a SysTick expiry, counted only when QEMU then fired the missed
# periods in a burst (the next expiry less than half a period after: the timer was due all
# along) and the CPU took the SysTick exception within 5 ms after. The guest's own doing shows
# otherwise, and then no stall counts: fewer expiries than half the periods the board ran (the
# guest stopped the timer: QEMU catches every period up, keeping the phase), or fewer SysTick
# exceptions taken than half the expiries that came apart (it cleared TICKINT or masked it).
#   scripts/qemu-systick-stall.sh FILE [MIN_MS [PERIOD_MS]]
# Exit status 0 when the longest stall is MIN_MS (default 5) or more and the guest shows
# neither: QEMU withheld SysTick that long, which no SysTick programming by the guest makes; 1
# otherwise (missing ticks are the guest's); 2 when the log has no expiry (not an ARMv7-M
# board, or no log). PERIOD_MS: SysTick's period (default 1: the kernel's TICK_HZ 1000).
. "$(dirname "$0")/script_help.sh" && script_help "$0" "${1:-}"
set -u
file=$1 min=${2:-5} period=${3:-1}
[ -s "$file" ] || { echo "no QEMU SysTick log ($file)"; exit 2; }
# Lines: "PID@SECONDS.MICROS:event text". The virtual clock stands while the VM is stopped
# (under gdb), so a gap is measured from the last expiry or the last start, whichever is later.
awk -v min="$min" -v period="$period" -F'[@:]' '
    # the running time since the first expiry (before it the guest had not started SysTick)
    function account(t) { if (run && n) ran += t - (last_run > first ? last_run : first) }
    NF >= 3 {
        t = $2 + 0
        end = t
        if ($3 ~ /^runstate_set/) {
            if ($0 ~ /new_state [0-9]+ \(running\)/) { run = 1; last = t; last_run = t }
            else { account(t); run = 0; cand = 0 }
        } else if ($3 ~ /^systick_timer_tick/) {
            if (!n++) { first = t }
            else if (run && t - last < period / 2000) { # less than half a period after: late
                late++
                if (cand) { stall = cand; burst = t }   # the gap before those was a stall
                cand = 0
            } else if (run) {
                cand = t - last
            }
            last = t
        } else if ($3 ~ /^nvic_acknowledge_irq/ && $0 ~ /IRQ: 15 /) {
            taken++
            if (stall && t - burst < 0.005 && stall > worst) worst = stall
            stall = 0
        } else if ($3 ~ /^gdbstub_op_exiting/) {
            account(t); run = 0
        }
    }
    END {
        if (!n) { print "no SysTick expiry in QEMU'"'"'s log"; exit 2 }
        account(end)
        stopped = n < ran * 1000 / period / 2
        masked = taken < (n - late) / 2
        printf "QEMU'"'"'s SysTick: longest stall %.1f ms of host time while the board ran; %d expiries in %.1f ms running, %d fired late, %d exceptions taken", worst * 1000, n, ran * 1000, late, taken
        if (stopped) printf "; fewer expiries than half the periods (the timer stopped)"
        if (masked) printf "; fewer taken than half the expiries (SysTick not taken)"
        printf "\n"
        exit worst * 1000 >= min && !stopped && !masked ? 0 : 1
    }' "$file"
