// SPDX-License-Identifier: MIT
// The cycle counter's low word, inline for the trace hot path: the generic timer's virtual
// count (CNTVCT_EL0; the kernel keeps CNTVOFF at 0, so it is the system count), the same on
// every AArch64 board and every CPU. Its rate is CNTFRQ_EL0 (the board's board.c).
#ifndef BOARD_CLOCK_H
#define BOARD_CLOCK_H

#include <stdint.h>

static inline uint64_t board_cntvct(void)
{
    uint64_t v;
    __asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v) :: "memory");
    return v;
}

static inline uint32_t board_cycles32(void)
{
    return (uint32_t)board_cntvct();
}

#endif
