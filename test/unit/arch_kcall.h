// SPDX-License-Identifier: MIT
// Host stand-in for the kernel-call register accessors (unit tests): the call being made is
// kept in the host context's r12, args and r0/r1 (arch_context.h here).
#ifndef ARCH_KCALL_H
#define ARCH_KCALL_H

#include <arch_context.h>

static inline uint32_t arch_kc_number(const struct arch_context *c) { return c->r12; }

static inline uint32_t arch_kc_arg(const struct arch_context *c, unsigned i)
{
    return i < 4 ? c->args[i] : i == 4 ? c->r4 : c->r5;
}

static inline uint32_t arch_kc_result(const struct arch_context *c, unsigned i)
{
    return i ? c->r1 : c->r0;
}

#endif
