// SPDX-License-Identifier: MIT
// A stopped thread's kernel-call registers, AArch64, inline for the traced call path
// (kernel/ktrace.c): number in x8, arguments in x0-x5, results in x0/x1 (32-bit values).
// context.c's arch_call_* wrap these.
#ifndef ARCH_KCALL_H
#define ARCH_KCALL_H

#include <arch_context.h>

static inline uint32_t arch_kc_number(const struct arch_context *c) { return (uint32_t)c->x[8]; }

static inline uint32_t arch_kc_arg(const struct arch_context *c, unsigned i)
{
    return i < 6 ? (uint32_t)c->x[i] : 0;
}

static inline uint32_t arch_kc_result(const struct arch_context *c, unsigned i)
{
    return (uint32_t)c->x[i ? 1 : 0];
}

#endif
