// SPDX-License-Identifier: MIT
// The fault for the trace (kernel/arch.h arch_fault_where): its kind from the saved ESR_EL1's
// exception class and fault status code, the pc from ELR, the address from FAR_EL1 for data
// and instruction aborts (the classes for which the architecture sets it).
#include <kernel/arch.h>
#include <kernel/thread.h>
#include <trace/kev.h>

#define EC(esr)  ((unsigned)((esr) >> 26) & 0x3fu)
#define FSC(esr) ((unsigned)(esr) & 0x3fu)

void arch_fault_where(struct arch_fault_where *w)
{
    const struct arch_context *c = &k_current->ctx;
    w->pc = c->pc;
    w->addr = 0;
    w->addr_valid = false;
    switch (EC(c->esr)) {
    case 0x24: case 0x25:           // data abort
        w->kind = FSC(c->esr) == 0x21 ? KEV_FAULT_ALIGN : KEV_FAULT_ACCESS;
        w->addr = c->far;
        w->addr_valid = true;
        break;
    case 0x20: case 0x21:           // instruction abort
        w->kind = KEV_FAULT_EXEC;
        w->addr = c->far;
        w->addr_valid = true;
        break;
    case 0x22: case 0x26:           // pc or sp alignment
        w->kind = KEV_FAULT_ALIGN;
        break;
    case 0x00: case 0x18: case 0x0e:
        w->kind = KEV_FAULT_UNDEF;
        break;
    case 0x3c:
        w->kind = KEV_FAULT_BREAK;
        break;
    case 0x2f:
        w->kind = KEV_FAULT_BUS;
        break;
    default:
        w->kind = KEV_FAULT_OTHER;
        break;
    }
}
