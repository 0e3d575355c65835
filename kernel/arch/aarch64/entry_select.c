// SPDX-License-Identifier: MIT
// Which C entry the exception entry calls, AArch64: a64_kernel_entry while tracing is off,
// a64_kernel_entry_traced while it runs (or notifications or a D program wait). Rather than
// test ktrace_kernel_on on every entry (a load and a branch: 4 instructions of a 318-instruction
// null kernel call), the one `bl` at a64_entry_call (entry.S) is rewritten when the choice
// changes, as Linux's static keys do: the untraced path then costs exactly what a kernel
// built without the hooks costs.
//
// Locking and ordering: called by ktrace_sync under the kernel lock, so one CPU rewrites at a
// time. The kernel's code is mapped writable at EL1 (mmu.c). The new instruction is cleaned
// to the point of unification and the instruction caches invalidated inner-shareable, so
// every CPU fetches it from its next exception on (exception entry is a context
// synchronisation event). A CPU that called the old entry before the change and waited for
// the lock meanwhile takes the traced path anyway when tracing is on by then (cpu.c).
#include <kernel/arch.h>
#include <kernel/arch_upcall.h>
#include <a64.h>
#include <stdint.h>

#ifndef KTRACE_DISABLED
// BL's encoding: 0b100101 and the word offset, 26 bits signed.
static uint32_t bl_to(const uint32_t *site, void (*fn)(unsigned))
{
    intptr_t off = ((intptr_t)(uintptr_t)fn - (intptr_t)(uintptr_t)site) >> 2;
    return 0x94000000u | ((uint32_t)off & 0x03ffffffu);
}
#endif

void arch_trace_entry_select(bool traced)
{
#ifndef KTRACE_DISABLED
    uint32_t insn = bl_to(a64_entry_call, traced ? a64_kernel_entry_traced : a64_kernel_entry);
    if (*(volatile uint32_t *)a64_entry_call == insn)
        return;
    *(volatile uint32_t *)a64_entry_call = insn;
    __asm__ volatile("dc cvau, %0\n\t"
                     "dsb ish\n\t"
                     "ic ivau, %0\n\t"
                     "dsb ish\n\t"
                     "isb" :: "r"(a64_entry_call) : "memory");
#else
    (void)traced;
#endif
}
