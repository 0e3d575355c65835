// SPDX-License-Identifier: MIT
// The fbt trap's view of the trapped kernel code, AArch64 (kernel/kfbt.h, docs/fbt.md): a
// site's `brk #0xfb` raises a synchronous exception at EL1 on SP_EL1 (the kernel's own stack),
// whose path in entry.S (a64_kernel_sync) pushes this frame below the trapped code's stack
// pointer and passes it to a64_fbt_trap before any kernel-fault report.
#ifndef ARCH_FBT_H
#define ARCH_FBT_H

#define A64_FBT_FRAME 272   /* sizeof(struct fbt_regs): entry.S pushes it */

#ifndef __ASSEMBLER__
#include <stdint.h>

#define A64_FBT_BRK_IMM 0xfbu                                 // the comment ESR_EL1.ISS carries
#define A64_FBT_BRK     (0xd4200000u | A64_FBT_BRK_IMM << 5)  // brk #0xfb

struct fbt_regs {
    uint64_t x[31];         // x0-x30 at the trap
    uint64_t sp;            // SP_EL1 at the trap (above this frame)
    uint64_t pc;            // ELR_EL1: the site; where the exception returns to
    uint64_t spsr;          // SPSR_EL1
};

_Static_assert(sizeof(struct fbt_regs) == A64_FBT_FRAME, "entry.S's fbt frame");
#endif

#endif
