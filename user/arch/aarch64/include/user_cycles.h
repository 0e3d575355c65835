// SPDX-License-Identifier: MIT
// ClockCycles() without a kernel call (user/lib/kcalls.c): the kernel opens the generic
// timer's virtual count to EL0 (CNTKCTL_EL1.EL0VCTEN, kernel/arch/aarch64/mmu.c) and its own
// clock is that count (board_cycles), so a program's read is the kernel's time, at its rate.
#ifndef USER_CYCLES_H
#define USER_CYCLES_H
#include <board_clock.h>
#define USER_CYCLES 1
static inline uint64_t user_cycles(void)
{
    return board_cntvct();
}
#endif
