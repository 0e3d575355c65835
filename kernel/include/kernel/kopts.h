// SPDX-License-Identifier: MIT
// The kernel's own options (kernel/kopts.c): the words of the boot command line's part that
// starts with the word "kernel" (each program reads its own part: user/lib/kargs.c), e.g.
//     kernel idle=poll ;; appinit sensor ;; tracelogger -d1 -f trace.kev
// Read once at boot.
#ifndef KERNEL_KOPTS_H
#define KERNEL_KOPTS_H

#include <kernel/kernel.h>

// idle=poll: each CPU's idle thread spins instead of waiting for an interrupt (WFI, HLT), as
// Linux's option of the same name. For QEMU's repeatable mode on the Cortex-M boards (a CPU
// waiting in WFI there sees every second timer interrupt only: docs/boards.md).
extern bool kopt_idle_poll;

// At boot, once the console and semihosting work (after board_init).
void kopts_init(void);

#endif
