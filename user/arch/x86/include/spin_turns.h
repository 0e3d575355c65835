// SPDX-License-Identifier: MIT
// spin_turns(n): n turns of a loop of two instructions (a decrement and a branch), whatever
// the compiler: the span against which kbench measures a timer's interrupts and irqrate's
// free-time meter counts what the board left it. One per arch, so programs name no arch.
#ifndef USER_SPIN_TURNS_H
#define USER_SPIN_TURNS_H
#include <stdint.h>

static inline __attribute__((always_inline)) void spin_turns(uint32_t n)
{
    __asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
}

#endif
