// SPDX-License-Identifier: MIT
// Fault reporting, AArch64. An exception of a program (EL0) kills its process (kernel_entry
// with KENTRY_FAULT); arch_fault_info() says what happened from the saved ESR_EL1, FAR_EL1
// and pc. An exception of the kernel or of its threads is a kernel bug: a64_kernel_fault()
// reports it and halts.
#include <kernel/arch.h>
#include <kernel/arch_upcall.h>
#include <uapi/kapi.h>
#include <a64.h>
#include <kernel/kpanic.h>
#include <fault_decode.h>

#define EC(esr)     ((unsigned)((esr) >> 26) & 0x3fu)
#define ISS_WNR     (1u << 6)
#define FSC(esr)    ((unsigned)(esr) & 0x3fu)

static const char *fsc_name(unsigned fsc)
{
    switch (fsc & 0x3cu) {
    case 0x04: return "not mapped";
    case 0x08: return "access flag";
    case 0x0c: return "protection";
    case 0x00: return "address size";
    default:   return fsc == 0x21 ? "alignment" : "abort";
    }
}

int arch_fault_info(char *buf, size_t size)
{
    const struct arch_context *c = &k_current->ctx;
    void *pc = (void *)(uintptr_t)c->pc, *far = (void *)(uintptr_t)c->far;
    unsigned ec = EC(c->esr);

    switch (ec) {
    case 0x24: case 0x25:           // data abort
        if (FSC(c->esr) == 0x21) {
            ksnprintf(buf, size, "alignment fault at %p, pc %p", far, pc);
            return KSIG_BUS;
        }
        ksnprintf(buf, size, "data abort %s %p (%s), pc %p",
                  (c->esr & ISS_WNR) ? "writing" : "reading", far, fsc_name(FSC(c->esr)), pc);
        return KSIG_SEGV;
    case 0x20: case 0x21:           // instruction abort
        ksnprintf(buf, size, "instruction abort executing %p (%s), pc %p", far,
                  fsc_name(FSC(c->esr)), pc);
        return KSIG_SEGV;
    case 0x22:
        ksnprintf(buf, size, "pc alignment fault, pc %p", pc);
        return KSIG_BUS;
    case 0x26:
        ksnprintf(buf, size, "stack pointer alignment fault, pc %p", pc);
        return KSIG_BUS;
    case 0x00: case 0x18: case 0x0e:
        ksnprintf(buf, size, "undefined instruction (esr %x) at pc %p", (unsigned)c->esr, pc);
        return KSIG_ILL;
    case 0x3c:
        ksnprintf(buf, size, "breakpoint (brk) at pc %p", pc);
        return KSIG_ILL;
    case 0x2f:
        ksnprintf(buf, size, "SError (esr %x), pc %p", (unsigned)c->esr, pc);
        return KSIG_BUS;
    default:
        ksnprintf(buf, size, "exception class %x (esr %x), pc %p", ec, (unsigned)c->esr, pc);
        return KSIG_ILL;
    }
}

// The KPANIC event's kind and address: the same decoding as a thread's fault (fault_where.c).
_Noreturn void a64_kernel_fault(uint64_t esr, uint64_t elr, uint64_t far, uint64_t spsr)
{
    struct arch_fault_where w;
    a64_fault_decode(esr, far, &w);
    w.pc = elr;
    kpanic_fault(&w,
                 "fault in kernel: esr %lx (class %x) pc %lx far %lx spsr %lx", (unsigned long)esr,
                 EC(esr), (unsigned long)elr, (unsigned long)far, (unsigned long)spsr);
}
