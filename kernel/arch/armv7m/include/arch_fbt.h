// SPDX-License-Identifier: MIT
// The fbt trap's view of the trapped kernel code, ARMv7-M (kernel/kfbt.h, docs/fbt.md): a
// site's `udf #0xfb` raises a UsageFault (or, taken where one cannot preempt, the HardFault it
// escalates to), whose kernel-fault path in entry.S pushes the callee-saved registers below
// the frame the hardware pushed and passes this to armv7m_fbt_trap.
#ifndef ARCH_FBT_H
#define ARCH_FBT_H

#include <stdint.h>

#define ARMV7M_FBT_UDF 0xdefbu   // udf #0xfb: the trap a site holds while probed

struct fbt_regs {
    uint32_t exc_return;    // the trap's EXC_RETURN
    uint32_t r4_11[8];      // r4-r11 at the trap
    uint32_t lr_exc;        // EXC_RETURN again (entry.S pushes lr to pop it back)
    uint32_t hw[8];         // the hardware's frame: r0-r3, r12, lr, pc, xPSR
};

#endif
