// SPDX-License-Identifier: MIT
// How many periods a self-reloading tick timer's interrupt covers (SysTick, x86's PIT), by the
// board's free-running cycle counter. Such a timer keeps one interrupt pending however many
// periods pass while interrupts are masked, so it cannot tell; the counter can
// (kernel/include/kernel/tick_periods.h has the rule). An arch whose tick is such a timer
// links this file, calls tick_counter_start from arch_tick_start and tick_counter_periods from
// arch_tick_periods. One CPU: the state is the tick's alone (kernel entries never nest).
#include <kernel/kernel.h>
#include <kernel/board.h>
#include <kernel/tick_counter.h>
#include <kernel/tick_periods.h>

static uint64_t end;        // the counter at the end of the period the next tick is for

void tick_counter_start(uint32_t period)
{
    if (!period)
        kpanic("tick_counter_start: a period of 0 counter cycles");
    end = board_cycles() + period;
}

unsigned tick_counter_pending(uint32_t period)
{
    return (unsigned)tick_periods_due(end, period, board_cycles(), period / 8u);
}

unsigned tick_counter_periods(uint32_t period)
{
    // A period may be counted up to P/8 before its end, as on AArch64: an interrupt a little
    // early by the counter (QEMU's SysTick under -icount) still counts its period.
    return (unsigned)tick_periods_ended(&end, period, board_cycles(), period / 8u);
}
