// SPDX-License-Identifier: MIT
// The fbt trap's view of the trapped kernel code, i386 (kernel/kfbt.h, docs/fbt.md): a site's
// `int3` raises #BP (vector 3) in ring 0, which entry.S's kernel-fault path hands to
// x86_fbt_trap with the frame it built: its pushal, the vector and a zero error code, then
// what the CPU pushed (a trap within ring 0 switches no stack: eip, cs and eflags alone, the
// trapped code's stack right above them). The same words as struct arch_context's first 13.
#ifndef ARCH_FBT_H
#define ARCH_FBT_H

#include <stdint.h>

#define X86_FBT_INT3 0xccu   // int3: the trap a site holds while probed

struct fbt_regs {
    uint32_t edi, esi, ebp, esp_pushal, ebx, edx, ecx, eax;
    uint32_t vector, error;
    uint32_t eip, cs, eflags;   // eip: past the int3
};

#endif
