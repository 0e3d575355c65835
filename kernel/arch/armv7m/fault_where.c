// SPDX-License-Identifier: MIT
// A thread's fault's kind, address and pc, ARMv7-M, for the trace's FAULT event
// (arch_fault_where, kernel/arch.h), by the one decoding of the fault status registers
// (fault_decode.h, fault.c). The pc comes from the frame the hardware pushed (read with the
// checked user-access path: a fault while stacking leaves no frame). Reads the status without
// clearing it: arch_fault_info does that afterwards.
#include <kernel/arch.h>
#include <kernel/arch_upcall.h>
#include <kernel/unwind.h>
#include <armv7m_regs.h>
#include <fault_decode.h>
#include <trace/kev.h>

void arch_fault_where(struct arch_fault_where *w)
{
    uint32_t cfsr = SCB_CFSR, dfsr = SCB_DFSR;
    const struct thread *t = k_current;
    uint32_t pc = 0;
    if (!armv7m_fault_stacking(cfsr) && t->proc &&
        unwind_read_user(t->proc, t->ctx.psp + 24u, &pc, 4) != 0)
        pc = 0;
    armv7m_fault_redirected(pc, &cfsr, &dfsr, &pc);   // a thread's HardFault
    armv7m_fault_decode(cfsr, w);
    if (w->kind == KEV_FAULT_OTHER && (dfsr & DFSR_BKPT || (!cfsr && armv7m_at_bkpt(t, pc))))
        w->kind = KEV_FAULT_BREAK;   // a bkpt (the DebugMonitor's, or a redirected HardFault)
    w->pc = pc;
}
