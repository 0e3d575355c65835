// SPDX-License-Identifier: MIT
// Writing the kernel's text for fbt, i386 (kernel/kfbt.h, docs/fbt.md). The kernel's code is
// RAM mapped read-write for the kernel, and CR0.WP is off (paging.c): ring 0 writes it as it
// is, so opening it takes nothing. A site's trap is the one byte int3, written with one byte
// store: a fetch sees the old instruction's first byte or the trap, never a mix of the two,
// and any instruction boundary can hold it. Intel SDM vol. 3, 8.1.3 ("Handling Self- and
// Cross-Modifying Code"): code written by the processor that then runs it needs a jump or a
// serialising instruction between the write and the execution; code written by another
// processor needs, on the executing one, a serialising instruction after the write is seen
// (the cross-modifying protocol). This board has one CPU: after the writes a serialising
// instruction (cpuid) discards anything fetched before them; the iret that ends the
// consumer's kernel call is another.
#include <kernel/arch_trace.h>
#include <d/dfbt.h>
#include <arch_fbt.h>

unsigned arch_fbt_trap_insn(uint8_t out[4])
{
    out[0] = X86_FBT_INT3;
    return 1;
}

void arch_fbt_patch_begin(void)
{
}

void arch_fbt_write(uintptr_t addr, const void *bytes, unsigned len)
{
    const uint8_t *b = bytes;
    for (unsigned i = 0; i < len; i++)
        *(volatile uint8_t *)(addr + i) = b[i];
}

void arch_fbt_patch_end(void)
{
    uint32_t a = 0, b, c = 0, d;
    __asm__ volatile("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d) :: "memory");
}
