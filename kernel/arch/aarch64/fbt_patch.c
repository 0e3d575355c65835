// SPDX-License-Identifier: MIT
// Writing the kernel's text for fbt, AArch64 (kernel/kfbt.h, docs/fbt.md "Placing on several
// CPUs"). The kernel's image is EL1 read-write and executable in every translation table
// (mmu.c: code memory, and invariant (1) for the user tables the kernel may run on), so a site
// is written in place: one aligned 32-bit store (an instruction is never seen half written),
// then cleaned to the point of unification (DC CVAU). The end completes the cleans (DSB ISH),
// invalidates every CPU's instruction caches (IC IALLUIS, broadcast to the inner shareable
// domain), completes that (DSB ISH) and synchronises this CPU's context (ISB). The other CPUs
// are held out of every kernel path the table lets probe (they run programs at EL0, idle, or
// wait for the kernel lock); each resynchronises before it runs kernel code again: an
// exception entry is context synchronising, and a CPU that waits for the kernel lock meanwhile
// executes an ISB once it has it (a64_fbt_resync_others, smp.c).
#include <kernel/arch_trace.h>
#include <d/dfbt.h>
#include <arch_fbt.h>
#include <a64.h>

unsigned arch_fbt_trap_insn(uint8_t out[4])
{
    for (unsigned i = 0; i < 4; i++)
        out[i] = (uint8_t)(A64_FBT_BRK >> (8 * i));
    return 4;
}

void arch_fbt_patch_begin(void)
{
}

void arch_fbt_write(uintptr_t addr, const void *bytes, unsigned len)
{
    const uint8_t *b = bytes;
    if (len != 4 || (addr & 3u))
        return;   // (an A64 table's sites are whole aligned instructions: fbtgen writes them so)
    *(volatile uint32_t *)addr = b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                                 (uint32_t)b[3] << 24;
    __asm__ volatile("dc cvau, %0" :: "r"(addr) : "memory");
}

void arch_fbt_patch_end(void)
{
    __asm__ volatile("dsb ish\n\tic ialluis\n\tdsb ish\n\tisb" ::: "memory");
    a64_fbt_resync_others();
}
