// SPDX-License-Identifier: MIT
// USDT sites, i386 (kernel/kusdt.h, docs/usdt.md). sys/sdt.h writes a 1-byte `nop` (0x90) at
// each site; a placed probe holds `int3` (0xcc) there. Vector 3's gate has DPL 3, so a
// program's int3 raises #BP in ring 3, a trap (eip past the int3) that entry.S hands to
// kernel_entry as the thread's fault; kernel_fault asks kusdt_fault first. The thread's
// registers are all in its saved context (entry.S copies the whole frame there). The kernel
// writes programs' text directly (CR0.WP off, identity-mapped); one CPU, and x86 makes a store
// to code visible to the next fetch itself (the iret back to the program serialises anyway).
#include <kernel/arch_trace.h>
#include <kernel/arch_upcall.h>
#include <x86.h>
#include <d/dusdt.h>
#include <arch_usdt.h>

void arch_usdt_write(uintptr_t addr, uint32_t insn)
{
    *(volatile uint8_t *)addr = (uint8_t)insn;
    __asm__ volatile("" ::: "memory");
}

unsigned arch_usdt_syntax(void)
{
    return DUSDT_SYNTAX_I386;
}

bool arch_usdt_trapped(struct thread *t, uint32_t *pc)
{
    if (t->ctx.vector != VEC_BP || (t->ctx.cs & 3u) != 3u)
        return false;
    *pc = t->ctx.eip - 1u;      // #BP is a trap: eip is past the 1-byte int3
    return true;
}

// DWARF's i386 numbering: eax ecx edx ebx esp ebp esi edi, then eip.
uintptr_t arch_usdt_reg(const struct thread *t, unsigned n)
{
    const struct arch_context *c = &t->ctx;
    switch (n) {
    case 0: return c->eax;
    case 1: return c->ecx;
    case 2: return c->edx;
    case 3: return c->ebx;
    case 4: return c->esp;      // ring 3's: the CPU pushed it
    case 5: return c->ebp;
    case 6: return c->esi;
    case 7: return c->edi;
    default: return c->eip;
    }
}

void arch_usdt_resume(struct thread *t, uint32_t pc)
{
    t->ctx.eip = pc;
}
