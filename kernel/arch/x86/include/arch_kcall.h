// SPDX-License-Identifier: MIT
// A stopped thread's kernel-call registers, i686, inline for the traced call path
// (kernel/ktrace.c): number in eax, arguments in ebx, ecx, edx, esi, edi, ebp, results in
// eax/edx. context.c's arch_call_* wrap these.
#ifndef ARCH_KCALL_H
#define ARCH_KCALL_H

#include <arch_context.h>

static inline uint32_t arch_kc_number(const struct arch_context *c) { return c->eax; }

static inline uint32_t arch_kc_arg(const struct arch_context *c, unsigned i)
{
    switch (i) {
    case 0: return c->ebx;
    case 1: return c->ecx;
    case 2: return c->edx;
    case 3: return c->esi;
    case 4: return c->edi;
    default: return c->ebp;
    }
}

static inline uint32_t arch_kc_result(const struct arch_context *c, unsigned i)
{
    return i ? c->edx : c->eax;
}

#endif
