// SPDX-License-Identifier: MIT
// The fbt trap, ARMv7-M (kernel/kfbt.h, docs/fbt.md). A probed site holds `udf #0xfb`: the
// kernel runs at the kernel's exception priority, below the faults', so executing it raises a
// UsageFault (UNDEFINSTR) that preempts the kernel; in a fault handler's own context (a
// thread's fault, handled at the faults' priority) it escalates to a HardFault instead. Both
// come to entry.S's kernel-fault path, which asks armv7m_fbt_trap before it reports a kernel
// fault. The registers come from the frame the hardware pushed on the main stack and from
// entry.S's push below it; resuming is writing the frame's pc (the exception return then
// goes to the site's slot, in the trapped context).
#include <kernel/arch_trace.h>
#include <d/dfbt.h>
#include <kernel/arch_upcall.h>
#include <arch_fbt.h>
#include <armv7m_regs.h>

#define UFSR_UNDEFINSTR (1u << 16)
#define HFSR_FORCED     (1u << 30)

// From entry.S: true when the fault was an fbt site's trap (handled: return to the slot).
bool armv7m_fbt_trap(struct fbt_regs *r);
bool armv7m_fbt_trap(struct fbt_regs *r)
{
    uint32_t pc = r->hw[6];
    if ((pc & 1u) || *(const volatile uint16_t *)(uintptr_t)pc != ARMV7M_FBT_UDF ||
        !kfbt_trap(r, pc))
        return false;
    SCB_CFSR = UFSR_UNDEFINSTR;          // write-one-to-clear: this fault is dealt with
    if (SCB_HFSR & HFSR_FORCED)
        SCB_HFSR = HFSR_FORCED;
    return true;
}

uint64_t arch_fbt_reg(const struct fbt_regs *r, unsigned n)
{
    if (n < 4)
        return r->hw[n];
    if (n < 12)
        return r->r4_11[n - 4];
    switch (n) {
    case 12: return r->hw[4];
    case 13: return arch_fbt_sp(r);
    case 14: return r->hw[5];
    case 15: return r->hw[6];
    default: return 0;
    }
}

// The stack pointer at the trap: above the hardware's frame, and its alignment word when the
// hardware realigned the stack (xPSR bit 9).
uintptr_t arch_fbt_sp(const struct fbt_regs *r)
{
    return (uintptr_t)&r->hw[8] + ((r->hw[7] >> 9) & 1u) * 4u;
}

uintptr_t arch_fbt_entry_cfa(const struct fbt_regs *r)
{
    return arch_fbt_sp(r);   // at a function's first instruction: the caller's sp
}

uint64_t arch_fbt_retval(const struct fbt_regs *r)
{
    return r->hw[0] | (uint64_t)r->hw[1] << 32;
}

uint64_t arch_fbt_link(const struct fbt_regs *r)
{
    return r->hw[5];
}

void arch_fbt_resume(struct fbt_regs *r, uintptr_t pc)
{
    r->hw[6] = (uint32_t)pc & ~1u;
}
