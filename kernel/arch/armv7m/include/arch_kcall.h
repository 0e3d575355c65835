// SPDX-License-Identifier: MIT
// A stopped thread's kernel-call registers, ARMv7-M, inline for the traced call path
// (kernel/ktrace.c): number in r12 and arguments 0-3 in the hardware frame at psp, 4 and 5
// in the saved r4/r5, results in the frame's r0/r1. context.c's arch_call_* wrap these.
#ifndef ARCH_KCALL_H
#define ARCH_KCALL_H

#include <arch_context.h>

static inline const uint32_t *arch_kc_frame(const struct arch_context *c)
{
    return (const uint32_t *)(uintptr_t)c->psp;
}

static inline uint32_t arch_kc_number(const struct arch_context *c)
{
    return arch_kc_frame(c)[4]; // r12
}

static inline uint32_t arch_kc_arg(const struct arch_context *c, unsigned i)
{
    if (i < 4)
        return arch_kc_frame(c)[i];
    return i == 4 ? c->r4 : c->r5;
}

static inline uint32_t arch_kc_result(const struct arch_context *c, unsigned i)
{
    return arch_kc_frame(c)[i ? 1 : 0];
}

#endif
