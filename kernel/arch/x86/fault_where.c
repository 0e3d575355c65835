// SPDX-License-Identifier: MIT
// The fault's kind and address, x86: the one decoding of the saved vector, error code and CR2
// (fault_decode.h), for the trace's FAULT event (arch_fault_where, kernel/arch.h) and the
// kernel's KPANIC (x86_kernel_fault, fault.c). The kind from the vector (and a page fault's
// error code), the address from cr2 for a page fault (the only vector that sets it); a
// thread's pc from its saved eip.
#include <kernel/arch.h>
#include <kernel/arch_upcall.h>
#include <x86.h>              // x86_fault_cr2
#include <fault_decode.h>
#include <trace/kev.h>

// Each exception vector's kind: those not named are KEV_FAULT_OTHER (0); a page fault's (14)
// is its error code's.
static const uint8_t vector_kind[32] = {
    [0] = KEV_FAULT_DIVZERO, [3] = KEV_FAULT_BREAK, [6] = KEV_FAULT_UNDEF,
    [11] = KEV_FAULT_ACCESS, [12] = KEV_FAULT_ACCESS, [13] = KEV_FAULT_ACCESS,
    [17] = KEV_FAULT_ALIGN,
};

void x86_fault_decode(uint32_t vector, uint32_t error, uint32_t cr2, struct arch_fault_where *w)
{
    bool page = vector == 14;
    if (page)
        w->kind = (error & 16) ? KEV_FAULT_EXEC : KEV_FAULT_ACCESS;
    else
        w->kind = vector < 32 ? vector_kind[vector] : KEV_FAULT_OTHER;
    w->addr = page ? cr2 : 0;
    w->addr_valid = page;
}

void arch_fault_where(struct arch_fault_where *w)
{
    const struct arch_context *c = &k_current->ctx;
    x86_fault_decode(c->vector, c->error, x86_fault_cr2, w);
    w->pc = c->eip;
}
