// SPDX-License-Identifier: MIT
// The cycle counter's low word, inline for the trace hot path: TIM2 counts up, free-running
// over all 32 bits (timer_stm32.c has the rest, including the high word).
#ifndef BOARD_CLOCK_H
#define BOARD_CLOCK_H

#include <stdint.h>

static inline uint32_t board_cycles32(void)
{
    return *(volatile uint32_t *)(0x40000000u + 0x24u);     // TIM2_CNT
}

#endif
