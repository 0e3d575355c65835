// SPDX-License-Identifier: MIT
// Bringing every subsystem's state to its boot value: at boot (main.c), and between host unit
// tests (test/unit/kstub.c), so both start from the same state.
#ifndef KERNEL_KINIT_H
#define KERNEL_KINIT_H

void kernel_state_init(void);

#endif
