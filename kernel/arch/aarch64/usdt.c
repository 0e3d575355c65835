// SPDX-License-Identifier: MIT
// USDT sites, AArch64 (kernel/kusdt.h, docs/usdt.md). sys/sdt.h writes an A64 `nop` at each
// site; a placed probe holds `brk #0xfc` there (fbt's is #0xfb), which the thread at EL0 takes
// as a synchronous exception, class 0x3C (BRK from AArch64) with the comment in ESR_EL1.ISS:
// entry.S saves the thread's x0-x30, sp, pc (ELR: the brk itself) and ESR in its context and
// the kernel sees the thread's fault (kernel_fault), which asks kusdt_fault first.
//
// Writing: a program's text is its flash slot, read-only for EL0 and, on the table opened for
// its process, for EL1 too (mmu.c invariant (1)); the kernel's own table maps it EL1
// read-write. So the write moves this CPU to the kernel's table for the store (ASID 0, no TLB
// work) and back. One aligned 32-bit store (never seen half written), cleaned to the point of
// unification, every CPU's instruction cache invalidated (IC IALLUIS), completed, and this
// CPU's context synchronised, as fbt does (fbt_patch.c). The other CPUs need no stop: `nop` and
// `brk` are both among the instructions one CPU may replace while another executes them (the
// ARMv8-A Reference Manual, B2.6.5, "Concurrent modification and execution of instructions"): a CPU
// running the program meanwhile executes the old or the new one. One that still runs the
// `nop` misses a firing while the D program starts; one that takes the `brk` after the `nop` is
// back resumes past it (kusdt.c, the stale trap).
#include <kernel/arch_trace.h>
#include <kernel/arch_upcall.h>
#include <d/dusdt.h>
#include <a64.h>
#include <arch_usdt.h>

#define EC_BRK64        0x3cu

unsigned arch_usdt_syntax(void)
{
    return DUSDT_SYNTAX_A64;
}

void arch_usdt_write(uintptr_t addr, uint32_t insn)
{
    if (addr & 3u)
        return;     // (kusdt.c places only aligned sites)
    uint64_t ttbr = A64_SYSREG_READ(ttbr0_el1);
    if (ttbr != a64_kernel_ttbr) {
        A64_SYSREG_WRITE(ttbr0_el1, a64_kernel_ttbr);
        a64_isb();
    }
    *(volatile uint32_t *)addr = insn;
    __asm__ volatile("dc cvau, %0\n\tdsb ish\n\tic ialluis\n\tdsb ish\n\tisb"
                     :: "r"(addr) : "memory");
    if (ttbr != a64_kernel_ttbr) {
        A64_SYSREG_WRITE(ttbr0_el1, ttbr);
        a64_isb();
    }
}

bool a64_brk_trapped(const struct thread *t, unsigned imm, uint32_t *pc)
{
    uint64_t esr = t->ctx.esr;
    if (((esr >> 26) & 0x3fu) != EC_BRK64 || (esr & 0xffffu) != imm || t->ctx.pc > 0xffffffffu)
        return false;
    *pc = (uint32_t)t->ctx.pc;
    return true;
}

bool arch_usdt_trapped(struct thread *t, uint32_t *pc)
{
    return a64_brk_trapped(t, ARCH_USDT_BRK_IMM, pc);
}

uintptr_t arch_usdt_reg(const struct thread *t, unsigned n)
{
    if (n < 31)
        return (uintptr_t)t->ctx.x[n];
    return n == 31 ? (uintptr_t)t->ctx.sp : 0u;     // DWARF 31: sp
}

void arch_usdt_resume(struct thread *t, uint32_t pc)
{
    t->ctx.pc = pc;
}
