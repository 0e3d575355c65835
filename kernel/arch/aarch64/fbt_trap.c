// SPDX-License-Identifier: MIT
// The fbt trap, AArch64 (kernel/kfbt.h, docs/fbt.md). A probed site holds `brk #0xfb`; the
// kernel runs at EL1 on SP_EL1 with interrupts masked, so executing it takes the synchronous
// exception of the current EL with SP_ELx (entry.S a64_kernel_sync), exception class 0x3C
// (BRK from AArch64) with the comment 0xfb in ESR_EL1.ISS. entry.S saves x0-x30, sp, ELR and
// SPSR in a frame on the same stack and asks a64_fbt_trap before it reports a kernel fault;
// resuming is writing the frame's pc (the eret then goes to the site's slot, in the trapped
// context). ELR of a BRK is the brk itself.
#include <kernel/arch_trace.h>
#include <d/dfbt.h>
#include <kernel/arch_upcall.h>
#include <kernel/unwind.h>
#include <arch_fbt.h>
#include <a64.h>

#define EC_BRK64 0x3cu

// From entry.S: true when the exception was an fbt site's trap (handled: return to the slot).
bool a64_fbt_trap(struct fbt_regs *r);
bool a64_fbt_trap(struct fbt_regs *r)
{
    uint64_t esr;
    __asm__ volatile("mrs %0, esr_el1" : "=r"(esr));
    if (((esr >> 26) & 0x3fu) != EC_BRK64 || (esr & 0xffffu) != A64_FBT_BRK_IMM)
        return false;
    return kfbt_trap(r, (uintptr_t)r->pc);
}

uint64_t arch_fbt_reg(const struct fbt_regs *r, unsigned n)
{
    if (n < 31)
        return r->x[n];
    return n == 31 ? r->sp : 0;   // DWARF 31: sp
}

uintptr_t arch_fbt_sp(const struct fbt_regs *r)
{
    return (uintptr_t)r->sp;
}

uintptr_t arch_fbt_entry_cfa(const struct fbt_regs *r)
{
    return (uintptr_t)r->sp;   // at a function's first instruction: the caller's sp
}

uint64_t arch_fbt_retval(const struct fbt_regs *r)
{
    return r->x[0];
}

uint64_t arch_fbt_link(const struct fbt_regs *r)
{
    return r->x[30];
}

void arch_fbt_resume(struct fbt_regs *r, uintptr_t pc)
{
    r->pc = pc;
}

// stack( ) in an fbt probe: the probed function's caller first. Every AArch64 site is an entry
// (the function's frame record not made yet) or an exit after the epilogue (its record gone):
// x30 is the return address into the caller, x29 the caller's frame record.
unsigned arch_fbt_unwind(const struct fbt_regs *r, const struct dfbt_site *s, uint64_t *pcs,
                         unsigned max)
{
    (void)s;
    uint64_t base = (uint64_t)(uintptr_t)a64_kstacks;
    uint64_t sp = r->sp;
    uint64_t top = sp >= base ? base + ((sp - base) / A64_KSTACK + 1u) * A64_KSTACK : sp;
    struct unwind_mem m = { unwind_read_bounded, NULL, sp, top };
    m.ctx = &m;
    int err;
    unsigned n = unwind_frame_records(&m, 8, r->x[30], r->x[29], pcs, max, &err);
    unwind_count(err == UNWIND_E_BOUNDS ? UNWIND_OK : err);
    return n;
}
