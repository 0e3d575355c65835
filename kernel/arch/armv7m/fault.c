// SPDX-License-Identifier: MIT
// Fault reporting. A fault in thread mode kills the faulting process (kernel_entry with
// KENTRY_FAULT); arch_fault_info() says what happened from the fault status registers. A fault
// in the kernel itself is a kernel bug: arch_kernel_fault() reports it and halts.
#include <kernel/arch.h>
#include <kernel/arch_upcall.h>
#include <armv7m_regs.h>
#include <uapi/kapi.h>
#include <kernel/kpanic.h>
#include <fault_decode.h>

#define MMFSR_IACCVIOL  (1u << 0)
#define MMFSR_DACCVIOL  (1u << 1)
#define MMFSR_MUNSTKERR (1u << 3)
#define MMFSR_MSTKERR   (1u << 4)
#define MMFSR_MMARVALID (1u << 7)
#define BFSR_UNSTKERR   (1u << 11)
#define BFSR_STKERR     (1u << 12)
#define BFSR_BFARVALID  (1u << 15)
#define UFSR_UNDEFINSTR (1u << 16)
#define UFSR_INVSTATE   (1u << 17)
#define UFSR_UNALIGNED  (1u << 24)
#define UFSR_DIVBYZERO  (1u << 25)

// ---- the one decoding of the fault status (fault_decode.h) ----------------------------------
// The kind from the Configurable Fault Status Register, the address from MMFAR or BFAR when
// the hardware says it holds one: a thread's fault (fault_where.c) and the kernel's own
// (arch_kernel_fault) alike.

bool armv7m_fault_stacking(uint32_t cfsr)
{
    return (cfsr & (MMFSR_MSTKERR | MMFSR_MUNSTKERR | BFSR_STKERR | BFSR_UNSTKERR)) != 0;
}

void armv7m_fault_decode(uint32_t cfsr, struct arch_fault_where *w)
{
    w->kind = KEV_FAULT_OTHER;
    w->addr_valid = false;
    w->addr = 0;
    if (armv7m_fault_stacking(cfsr)) {
        w->kind = KEV_FAULT_STACKING;
    } else if (cfsr & 0xffu) {
        w->kind = (cfsr & MMFSR_IACCVIOL) ? KEV_FAULT_EXEC : KEV_FAULT_ACCESS;
        if (cfsr & MMFSR_MMARVALID) {
            w->addr = SCB_MMFAR;
            w->addr_valid = true;
        }
    } else if (cfsr & 0xff00u) {
        w->kind = KEV_FAULT_BUS;
        if (cfsr & BFSR_BFARVALID) {
            w->addr = SCB_BFAR;
            w->addr_valid = true;
        }
    } else if (cfsr & 0xffff0000u) {
        w->kind = (cfsr & UFSR_DIVBYZERO) ? KEV_FAULT_DIVZERO
                : (cfsr & UFSR_UNDEFINSTR) ? KEV_FAULT_UNDEF
                : (cfsr & UFSR_INVSTATE) ? KEV_FAULT_EXEC
                : (cfsr & UFSR_UNALIGNED) ? KEV_FAULT_ALIGN : KEV_FAULT_OTHER;
    }
}


// A thread's fault that came as a HardFault, noted by armv7m_thread_hardfault before the
// thread is sent to armv7m_fault_redirect (entry.S): its status and pc, reported when the
// redirect's UsageFault reaches arch_fault_info. One CPU on this architecture; 0: none.
// Only where the fbt provider is built: without its trap a HardFault's level is no danger.
#ifndef KFBT_DISABLED
static struct {
    uint32_t cfsr, dfsr, pc;
} redirected;
void armv7m_fault_redirect(void);
void armv7m_thread_hardfault(uint32_t *frame);

void armv7m_thread_hardfault(uint32_t *frame)
{
    redirected.cfsr = SCB_CFSR;
    redirected.dfsr = SCB_DFSR;
    redirected.pc = frame[6];
    SCB_HFSR = SCB_HFSR;            // write-one-to-clear: the redirect's fault is its own
    SCB_CFSR = redirected.cfsr;
    SCB_DFSR = redirected.dfsr;
    frame[6] = (uint32_t)(uintptr_t)armv7m_fault_redirect & ~1u;
}
#endif

// Whether thread t's pc holds a bkpt (read with the checked user-access path).
bool armv7m_at_bkpt(const struct thread *t, uint32_t pc)
{
    uint16_t insn;
    return t && t->proc && proc_can_read(t->proc, pc & ~1u, 2) &&
           (insn = *(const uint16_t *)(uintptr_t)(pc & ~1u), (insn & 0xff00u) == 0xbe00u);
}

// Swaps the status registers' values for a redirected fault's noted ones (arch_fault_info,
// arch_fault_where): true when the fault being handled is one.
bool armv7m_fault_redirected(uint32_t pc, uint32_t *cfsr, uint32_t *dfsr, uint32_t *fpc)
{
#ifdef KFBT_DISABLED
    (void)pc, (void)cfsr, (void)dfsr, (void)fpc;
    return false;
#else
    if (!redirected.pc || pc != ((uint32_t)(uintptr_t)armv7m_fault_redirect & ~1u))
        return false;
    *cfsr = redirected.cfsr;
    *dfsr = redirected.dfsr;
    *fpc = redirected.pc;
    return true;
#endif
}

// The message of a fault on a data access: "<what> accessing <addr>, pc <pc>" where the status
// register says the address register holds the address (addr_valid), else "<what>, pc <pc>".
static void access_message(char *buf, size_t size, const char *what, bool addr_valid,
                           uint32_t addr, uint32_t pc)
{
    if (addr_valid)
        ksnprintf(buf, size, "%s accessing %p, pc %p", what, (void *)(uintptr_t)addr,
                  (void *)(uintptr_t)pc);
    else
        ksnprintf(buf, size, "%s, pc %p", what, (void *)(uintptr_t)pc);
}

int arch_fault_info(char *buf, size_t size)
{
    uint32_t cfsr = SCB_CFSR, mmfar = SCB_MMFAR, bfar = SCB_BFAR, dfsr = SCB_DFSR;
    uint32_t pc = 0;
    int sig;

    SCB_CFSR = cfsr;            // write-one-to-clear
    SCB_DFSR = dfsr;
    SCB_HFSR = SCB_HFSR;
    // A fault while stacking an svc leaves the svc pending; taken later, it would run as a
    // kernel call of whichever thread runs next. The faulting thread dies: drop it.
    SCB_SHCSR &= ~SHCSR_SVCALLPENDED;
    if (!(cfsr & (MMFSR_MSTKERR | MMFSR_MUNSTKERR)))
        pc = ((const uint32_t *)(uintptr_t)k_current->ctx.psp)[6];
    if (armv7m_fault_redirected(pc, &cfsr, &dfsr, &pc)) {
#ifndef KFBT_DISABLED
        redirected.pc = 0;      // the fault it stood for, reported once
#endif
    }
    if (!cfsr && armv7m_at_bkpt(k_current, pc))
        dfsr |= DFSR_BKPT;      // QEMU's core has no DFSR: the instruction says it

    if (cfsr & 0xffu) {
        sig = KSIG_SEGV;
        if (cfsr & MMFSR_MSTKERR)
            ksnprintf(buf, size, "MPU violation stacking an exception (bad stack pointer %p)",
                      (void *)(uintptr_t)k_current->ctx.psp);
        else if (cfsr & MMFSR_IACCVIOL)
            ksnprintf(buf, size, "MPU violation executing at %p", (void *)(uintptr_t)pc);
        else
            access_message(buf, size, "MPU violation", cfsr & MMFSR_MMARVALID, mmfar, pc);
    } else if (cfsr & 0xff00u) {
        sig = KSIG_BUS;
        access_message(buf, size, "bus fault", cfsr & BFSR_BFARVALID, bfar, pc);
    } else if (cfsr & 0xffff0000u) {
        sig = KSIG_ILL;
        const char *what = (cfsr & UFSR_DIVBYZERO) ? "divide by zero"
                         : (cfsr & UFSR_UNDEFINSTR) ? "undefined instruction"
                         : (cfsr & UFSR_INVSTATE) ? "invalid state (bad jump)"
                         : (cfsr & UFSR_UNALIGNED) ? "unaligned access" : "usage fault";
        ksnprintf(buf, size, "%s at pc %p", what, (void *)(uintptr_t)pc);
    } else if (dfsr & DFSR_BKPT) {
        sig = KSIG_ILL;
        ksnprintf(buf, size, "breakpoint (bkpt) at pc %p", (void *)(uintptr_t)pc);
    } else {
        sig = KSIG_SEGV;
        ksnprintf(buf, size, "hard fault, pc %p", (void *)(uintptr_t)pc);
    }
    return sig;
}

// The KPANIC event's kind and address: the same decoding as a thread's fault (fault_where.c),
// the pc from the frame the hardware pushed on the main stack.
_Noreturn void arch_kernel_fault(uint32_t exc_return, uint32_t msp);
_Noreturn void arch_kernel_fault(uint32_t exc_return, uint32_t msp)
{
    uint32_t cfsr = SCB_CFSR;
    const uint32_t *f = (const uint32_t *)(uintptr_t)msp;
    struct arch_fault_where w;
    armv7m_fault_decode(cfsr, &w);
    w.pc = f[6];
    kpanic_fault(&w,
                 "fault in kernel: CFSR %08x HFSR %08x MMFAR %08x BFAR %08x pc %08x lr %08x (EXC_RETURN %08x)",
                 (unsigned)cfsr, (unsigned)SCB_HFSR, (unsigned)SCB_MMFAR, (unsigned)SCB_BFAR,
                 (unsigned)f[6], (unsigned)f[5], (unsigned)exc_return);
}
