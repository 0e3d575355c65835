// SPDX-License-Identifier: MIT
// The fault's kind and address, ARMv7-M: the one decoding of the fault status registers
// (fault_decode.h), for the trace's FAULT event (arch_fault_where, kernel/arch.h) and the
// kernel's KPANIC (arch_kernel_fault, fault.c). The kind from the Configurable Fault Status
// Register, the address from MMFAR or BFAR when the hardware says it holds one. A thread's pc
// comes from the frame the hardware pushed (read with the checked user-access path: a fault
// while stacking leaves no frame). Reads the status without clearing it: arch_fault_info does
// that afterwards.
#include <kernel/arch.h>
#include <kernel/thread.h>
#include <kernel/unwind.h>
#include <armv7m_regs.h>
#include <fault_decode.h>
#include <trace/kev.h>

#define MMFSR_IACCVIOL  (1u << 0)
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

void arch_fault_where(struct arch_fault_where *w)
{
    uint32_t cfsr = SCB_CFSR, dfsr = SCB_DFSR;
    const struct thread *t = k_current;
    uint32_t pc = 0;
    if (!armv7m_fault_stacking(cfsr) && t->proc &&
        unwind_read_user(t->proc, t->ctx.psp + 24u, &pc, 4) != 0)
        pc = 0;
    armv7m_fault_redirected(pc, &cfsr, &dfsr, &pc);   // a thread's HardFault (fault.c)
    armv7m_fault_decode(cfsr, w);
    if (w->kind == KEV_FAULT_OTHER && (dfsr & DFSR_BKPT || (!cfsr && armv7m_at_bkpt(t, pc))))
        w->kind = KEV_FAULT_BREAK;   // a bkpt (the DebugMonitor's, or a redirected HardFault)
    w->pc = pc;
}
