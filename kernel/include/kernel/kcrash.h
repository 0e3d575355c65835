// SPDX-License-Identifier: MIT
// A forced kernel fault for the post-mortem test (kernel/kcrash.c). kcrash.c is not part of
// the kernel library: an image has it only when its link asks for it (<image>_KOBJS,
// user/module.mk). The kernel library holds a weak, null kdebug_fault_hook (kernel/kcall.c);
// kcrash.c's strong one replaces it, so in every other image ThreadCtl(KTCTL_KDEBUG_FAULT)
// answers EINVAL. (A weak *defined* pointer, not a weak undefined function: AArch64 code
// reaches a weak undefined symbol through the GOT, which the kernel's startup never copies.)
#ifndef KERNEL_KCRASH_H
#define KERNEL_KCRASH_H

#include <stdint.h>

struct thread;

// Makes the kernel fault (it does not return) for a privileged t's process; -EPERM otherwise,
// -EINVAL for an unknown `how` (KDEBUG_FAULT_*, uapi/kapi.h).
extern int (*kdebug_fault_hook)(struct thread *t, uint32_t how);
// The function whose load faults: the KPANIC event's pc names it (test/qemu/test_kfault.sh).
uint32_t kcrash_bad_read(const volatile uint32_t *p);

#endif
