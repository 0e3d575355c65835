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

// The trace's fast path (trace_port_now32) alone uses it: without board_cntvct's ISB, so the
// read may be taken a few instructions early. The ring writes a slot with it only when it is
// not below the CPU's last time; anything else goes to its slow path, which reads the
// 64-bit count with the barrier (an ISB is one instruction of an event's twenty).
static inline uint32_t board_cycles32(void)
{
    uint64_t v;
    __asm__ volatile("mrs %0, cntvct_el0" : "=r"(v) :: "memory");
    return (uint32_t)v;
}

#endif
