// SPDX-License-Identifier: MIT
// How many periods a self-reloading tick timer's interrupt covers (SysTick, the PIT), from the
// board's cycle counter (kernel/tick_counter.c): what such an arch's arch_tick_periods
// (kernel/arch.h) returns.
#ifndef KERNEL_TICK_COUNTER_H
#define KERNEL_TICK_COUNTER_H

#include <stdint.h>

// The tick timer was just started with a period of `period` cycles of board_cycles().
void tick_counter_start(uint32_t period);
// At a tick: the periods of `period` cycles it covers (0 for an interrupt early by the counter). The arch gives the period each
// time rather than this file keeping it (netduinoplus2's kernel RAM has no 4 bytes to spare).
unsigned tick_counter_periods(uint32_t period);
// The periods ended that no tick has counted yet (arch_tick_pending).
unsigned tick_counter_pending(uint32_t period);

#endif
