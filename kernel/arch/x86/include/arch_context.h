// SPDX-License-Identifier: MIT
// Saved state of a thread that is not running, x86 (32-bit). The layout is the trap frame the
// entry code builds on the kernel stack (pushal, vector, error code, then what the CPU pushed),
// copied here whole: entry.S depends on it (offsets in x86.h, X86_CTX_*). For a thread
// interrupted in ring 0 (the idle thread) esp/ss are filled in by the entry code.
#ifndef ARCH_CONTEXT_H
#define ARCH_CONTEXT_H

#include <stdint.h>

struct arch_context {
    uint32_t edi, esi, ebp, esp_pushal, ebx, edx, ecx, eax;
    uint32_t vector, error;
    uint32_t eip, cs, eflags, esp, ss;
};

#endif
