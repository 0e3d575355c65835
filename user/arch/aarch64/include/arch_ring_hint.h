// SPDX-License-Identifier: MIT
// The kernel's word to a thread on AArch64: TPIDRRO_EL0, which EL0 reads and cannot write,
// holds the address of the user-event ring the kernel took as this thread's own (0: none).
// The kernel loads it at every return to the thread (kernel/arch/aarch64/context.c,
// arch_thread_ring_hint); user/lib/trace_uring.c reads it instead of looking its ring up.
#ifndef ARCH_RING_HINT_H
#define ARCH_RING_HINT_H

#include <stdint.h>

// The user-event inserts (trace_uring.c) each start on a 1 KB boundary, which they are
// smaller than, so that neither crosses a 4 KB page: QEMU chains its translated blocks only
// within a page, and the same insert straddling one ran 25 % slower on the host's clock
// (docs/smp.md, "User events"; scripts/check-uring-text.sh checks it).
#define ARCH_URING_TEXT_ALIGN 1024

static inline uintptr_t arch_ring_hint(void)
{
    uintptr_t v;
    __asm__ volatile("mrs %0, tpidrro_el0" : "=r"(v));
    return v;
}

#endif
