// SPDX-License-Identifier: MIT
// Saved state of a thread that is not running, AArch64: the general registers, the stack
// pointer (SP_EL0: programs at EL0 and the kernel's own threads at EL1t both run on it), the
// return address and state (ELR_EL1, SPSR_EL1), the thread pointer (TPIDR_EL0, picolibc's
// TLS), the kernel's word to the thread (TPIDRRO_EL0, which EL0 reads and cannot write: the
// user-event ring registered as this thread's own, arch_thread_ring_hint; never saved, only
// loaded at every return), what the last exception said (ESR_EL1, FAR_EL1) and the FP/SIMD
// registers (the kernel uses none, but C libraries do). entry.S depends on the layout
// (offsets in a64.h, A64_CTX_*).
#ifndef ARCH_CONTEXT_H
#define ARCH_CONTEXT_H

#include <stdint.h>

struct arch_context {
    uint64_t x[31];
    uint64_t sp;
    uint64_t pc;
    uint64_t pstate;
    uint64_t tpidr;
    uint64_t tpidrro;       // next to tpidr: one load at the return fetches both
    uint64_t esr;
    uint64_t far;
    uint64_t fpcr, fpsr;
    uint64_t q[64];         // v0-v31, 128 bits each
} __attribute__((aligned(16)));

#endif
