// SPDX-License-Identifier: MIT
// Kernel-call entry: decodes the call of a thread stopped in `svc` and runs it.
#ifndef KERNEL_KCALL_H
#define KERNEL_KCALL_H

#include <kernel/kernel.h>

struct thread;
void kcall_dispatch(struct thread *t);
// The same for an entry while tracing runs: also records the call's entry event.
void kcall_dispatch_traced(struct thread *t);
extern uint64_t k_kcall_count;

#endif
