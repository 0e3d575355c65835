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

void x86_fault_decode(uint32_t vector, uint32_t error, uint32_t cr2, struct arch_fault_where *w)
{
    w->addr = 0;
    w->addr_valid = false;
    switch (vector) {
    case 14:
        w->kind = (error & 16) ? KEV_FAULT_EXEC : KEV_FAULT_ACCESS;
        w->addr = cr2;
        w->addr_valid = true;
        break;
    case 13: case 12: case 11:
        w->kind = KEV_FAULT_ACCESS;
        break;
    case 0:
        w->kind = KEV_FAULT_DIVZERO;
        break;
    case 6:
        w->kind = KEV_FAULT_UNDEF;
        break;
    case 3:
        w->kind = KEV_FAULT_BREAK;
        break;
    case 17:
        w->kind = KEV_FAULT_ALIGN;
        break;
    default:
        w->kind = KEV_FAULT_OTHER;
        break;
    }
}

void arch_fault_where(struct arch_fault_where *w)
{
    const struct arch_context *c = &k_current->ctx;
    x86_fault_decode(c->vector, c->error, x86_fault_cr2, w);
    w->pc = c->eip;
}
