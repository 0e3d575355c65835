// SPDX-License-Identifier: MIT
// The cycle counter's low word, inline for the trace hot path: the TSC (pit_tsc.c has the
// rest: calibration against the PIT).
#ifndef BOARD_CLOCK_H
#define BOARD_CLOCK_H

#include <stdint.h>

static inline uint32_t board_cycles32(void)
{
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return lo;
}

#endif
