// SPDX-License-Identifier: MIT
// The fault's kind and address, AArch64: the one decoding of ESR and FAR (fault_decode.h), for
// the trace's FAULT event (arch_fault_where, kernel/arch.h) and the kernel's KPANIC
// (a64_kernel_fault, fault.c). The kind from the exception class and fault status code, the
// address from FAR_EL1 for data and instruction aborts (the classes for which the architecture
// sets it); a thread's pc from its saved ELR.
#include <kernel/arch.h>
#include <kernel/arch_upcall.h>
#include <fault_decode.h>
#include <trace/kev.h>

#define EC(esr)  ((unsigned)((esr) >> 26) & 0x3fu)
#define FSC(esr) ((unsigned)(esr) & 0x3fu)

void a64_fault_decode(uint64_t esr, uint64_t far, struct arch_fault_where *w)
{
    w->addr = 0;
    w->addr_valid = false;
    switch (EC(esr)) {
    case 0x24: case 0x25:           // data abort
        w->kind = FSC(esr) == 0x21 ? KEV_FAULT_ALIGN : KEV_FAULT_ACCESS;
        w->addr = far;
        w->addr_valid = true;
        break;
    case 0x20: case 0x21:           // instruction abort
        w->kind = KEV_FAULT_EXEC;
        w->addr = far;
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

void arch_fault_where(struct arch_fault_where *w)
{
    const struct arch_context *c = &k_current->ctx;
    a64_fault_decode(c->esr, c->far, w);
    w->pc = c->pc;
}
