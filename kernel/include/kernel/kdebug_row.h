// SPDX-License-Identifier: MIT
// The write of the event table's test-only row on demand (uapi/kapi.h KTCTL_KDEBUG_ROW), for
// the test of a row's own D probe fired live (test/qemu/test_kevrow_live.sh). Its site,
// test/tools/test_event_row_kernel.c, is not in the kernel library: only an image that lists it
// in <image>_KOBJS (user/module.mk; the kevrowlive test image) has it. The kernel library holds
// a weak, null kdebug_row_hook (kernel/kcall.c), which that file's strong one replaces.
#ifndef KERNEL_KDEBUG_ROW_H
#define KERNEL_KDEBUG_ROW_H

#include <stdint.h>

struct thread;

// Writes TEST_ONLY for t with the values at user address data (struct kdebug_row): 0, or
// -EFAULT / -EINVAL.
extern int (*kdebug_row_hook)(struct thread *t, uint32_t data);

#endif
