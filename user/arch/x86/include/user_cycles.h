// SPDX-License-Identifier: MIT
// ClockCycles() without a kernel call (user/lib/kcalls.c): the kernel leaves CR4.TSD clear, so
// rdtsc runs in ring 3, and its own clock is the same time-stamp counter (board_cycles,
// boards/x86-pc/pit_tsc.c), so a program's read is the kernel's time, at its rate.
#ifndef USER_CYCLES_H
#define USER_CYCLES_H
#include <stdint.h>
#define USER_CYCLES 1
static inline uint64_t user_cycles(void)
{
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi) :: "memory");
    return (uint64_t)hi << 32 | lo;
}
#endif
