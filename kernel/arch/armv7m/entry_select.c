// SPDX-License-Identifier: MIT
// Which C entry the exception entry calls, ARMv7-M: kernel_entry while tracing is off,
// kernel_entry_traced while it runs (or notifications or a D program wait). Rather than test
// ktrace_kernel_on on every entry (a literal load, a load and a branch: 3 of a 146-instruction
// null kernel call), the exceptions come through one of two vector tables (vectors.c), whose
// thread-mode entries differ only in the C entry they reach (entry.S), and VTOR is pointed at
// the one wanted when the choice changes: the untraced path then runs exactly the entry a
// kernel built without the hooks runs. (AArch64 rewrites its call instead: aarch64/entry_select.c.)
//
// Called by ktrace_sync under the kernel lock, inside a kernel entry: the exceptions that follow
// take their vectors from the new table (the DSB/ISB make the write reach the NVIC first).
#include <kernel/arch.h>
#include <armv7m_regs.h>
#include <stdint.h>

typedef void (*vector_fn)(void);
extern const vector_fn arch_vectors[], arch_vectors_traced[];

void arch_trace_entry_select(bool traced)
{
#ifndef KTRACE_DISABLED
    SCB_VTOR = (uint32_t)(uintptr_t)(traced ? arch_vectors_traced : arch_vectors);
    __asm__ volatile("dsb\n\tisb" ::: "memory");
#else
    (void)traced;
#endif
}
