// SPDX-License-Identifier: MIT
// The cycle counter's low word, inline for the trace hot path: CMSDK timer 1 counts down
// from 0xffffffff at the core clock, so its complement counts up (timer_cmsdk.c has the rest).
#ifndef BOARD_CLOCK_H
#define BOARD_CLOCK_H

#include <stdint.h>

static inline uint32_t board_cycles32(void)
{
    return ~*(volatile uint32_t *)(0x40001000u + 0x04u);
}

#endif
