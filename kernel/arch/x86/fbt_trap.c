// SPDX-License-Identifier: MIT
// The fbt trap, i386 (kernel/kfbt.h, docs/fbt.md). A probed site holds `int3`: executed in ring
// 0 it raises #BP (vector 3, an interrupt gate: interrupts stay off), which entry.S's
// kernel-fault path hands to x86_fbt_trap before it reports a kernel fault. #BP is a trap: the
// saved eip is past the one-byte int3, so the site is eip - 1. Resuming is writing the frame's
// eip: the iret that ends the path goes to the site's slot with the trapped code's flags and
// stack. Arguments: DWARF numbers i386's registers eax ecx edx ebx esp ebp esi edi; at a
// function's first instruction its return address is the word at esp and its stack arguments
// start above it (cdecl; the kernel is not built with -mregparm, and a static function GCC
// gives its own register convention has its DWARF say which registers).
#include <kernel/arch_trace.h>
#include <d/dfbt.h>
#include <kernel/arch_upcall.h>
#include <arch_fbt.h>

// From entry.S: true when the kernel's #BP was an fbt site's trap (handled: iret to the slot).
bool x86_fbt_trap(struct fbt_regs *r);
bool x86_fbt_trap(struct fbt_regs *r)
{
    uint32_t pc = r->eip - 1u;
    return r->vector == 3 && *(const volatile uint8_t *)(uintptr_t)pc == X86_FBT_INT3 &&
           kfbt_trap(r, pc);
}

uint64_t arch_fbt_reg(const struct fbt_regs *r, unsigned n)
{
    switch (n) {
    case 0: return r->eax;
    case 1: return r->ecx;
    case 2: return r->edx;
    case 3: return r->ebx;
    case 4: return arch_fbt_sp(r);
    case 5: return r->ebp;
    case 6: return r->esi;
    case 7: return r->edi;
    case 8: return r->eip - 1u;
    default: return 0;
    }
}

// The stack pointer at the trap: right above the CPU's frame (ring 0 to ring 0 switches none).
uintptr_t arch_fbt_sp(const struct fbt_regs *r)
{
    return (uintptr_t)(&r->eflags + 1);
}

uintptr_t arch_fbt_entry_cfa(const struct fbt_regs *r)
{
    return arch_fbt_sp(r) + 4u;   // above the return address: the caller's esp before its call
}

uint64_t arch_fbt_retval(const struct fbt_regs *r)
{
    return r->eax | (uint64_t)r->edx << 32;
}

// i386 has no link register: at a function's entry and at a tail call (DFBT_RA_LR sites) the
// return address is the word at the stack pointer, as at a ret.
uint64_t arch_fbt_link(const struct fbt_regs *r)
{
    return *(const uint32_t *)arch_fbt_sp(r);
}

void arch_fbt_resume(struct fbt_regs *r, uintptr_t pc)
{
    r->eip = (uint32_t)pc;
}
