// SPDX-License-Identifier: MIT
// Host stand-in for the saved thread context (unit tests): results land in r0/r1 here
// instead of in an exception frame.
#ifndef ARCH_CONTEXT_H
#define ARCH_CONTEXT_H

#include <stdint.h>

struct arch_context {
    uint32_t psp;
    uint32_t r4, r5, r6, r7, r8, r9, r10, r11;
    uint32_t control;
    uint32_t r0, r1, r12, args[4];  // host only: the kernel call being made
};

#endif
