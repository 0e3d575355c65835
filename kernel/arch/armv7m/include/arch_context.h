// SPDX-License-Identifier: MIT
// Saved state of a thread that is not running, ARMv7-M. The hardware pushes r0-r3, r12, lr,
// pc and xPSR on the thread's own stack (psp); entry.S saves the rest here. entry.S depends on
// this layout: psp at 0, r4-r11 at 4..32, control at 36.
#ifndef ARCH_CONTEXT_H
#define ARCH_CONTEXT_H

#include <stdint.h>

struct arch_context {
    uint32_t psp;
    uint32_t r4, r5, r6, r7, r8, r9, r10, r11;
    uint32_t control;       // nPRIV (bit 0) and SPSEL (bit 1) to restore
};

#endif
