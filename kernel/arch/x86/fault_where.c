// SPDX-License-Identifier: MIT
// The fault for the trace (kernel/arch.h arch_fault_where): its kind from the saved vector
// (and a page fault's error code), the pc from the saved eip, the address from cr2 for a
// page fault (the only vector that sets it).
#include <kernel/arch.h>
#include <kernel/thread.h>
#include <x86.h>              // x86_fault_cr2
#include <trace/kev.h>


void arch_fault_where(struct arch_fault_where *w)
{
    const struct arch_context *c = &k_current->ctx;
    w->pc = c->eip;
    w->addr = 0;
    w->addr_valid = false;
    switch (c->vector) {
    case 14:
        w->kind = (c->error & 16) ? KEV_FAULT_EXEC : KEV_FAULT_ACCESS;
        w->addr = x86_fault_cr2;
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
