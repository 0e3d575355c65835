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

// Each exception class's kind: those not named are KEV_FAULT_OTHER (0); a data abort's is
// its fault status code's (alignment, or an access).
static const uint8_t ec_kind[64] = {
    [0x00] = KEV_FAULT_UNDEF, [0x0e] = KEV_FAULT_UNDEF, [0x18] = KEV_FAULT_UNDEF,
    [0x20] = KEV_FAULT_EXEC, [0x21] = KEV_FAULT_EXEC,         // instruction abort
    [0x22] = KEV_FAULT_ALIGN, [0x26] = KEV_FAULT_ALIGN,       // pc or sp alignment
    [0x24] = KEV_FAULT_ACCESS, [0x25] = KEV_FAULT_ACCESS,     // data abort
    [0x2f] = KEV_FAULT_BUS, [0x3c] = KEV_FAULT_BREAK,
};

void a64_fault_decode(uint64_t esr, uint64_t far, struct arch_fault_where *w)
{
    unsigned ec = EC(esr);
    bool data = ec == 0x24 || ec == 0x25;
    bool abort = data || ec == 0x20 || ec == 0x21;     // the classes that set FAR
    w->kind = data && FSC(esr) == 0x21 ? KEV_FAULT_ALIGN : ec_kind[ec];
    w->addr = abort ? far : 0;
    w->addr_valid = abort;
}

void arch_fault_where(struct arch_fault_where *w)
{
    const struct arch_context *c = &k_current->ctx;
    a64_fault_decode(c->esr, c->far, w);
    w->pc = c->pc;
}
