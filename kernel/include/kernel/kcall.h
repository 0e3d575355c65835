// SPDX-License-Identifier: MIT
// Kernel-call entry: decodes the call of a thread stopped in `svc` and runs it.
#ifndef KERNEL_KCALL_H
#define KERNEL_KCALL_H

#include <kernel/kernel.h>

#include <kernel/thread.h>
#include <stdint.h>

void kcall_dispatch(struct thread *t);
// The same for an entry while tracing runs: also records the call's entry event.
void kcall_dispatch_traced(struct thread *t);
extern uint64_t k_kcall_count;

// A 64-bit nanosecond argument, given as two 32-bit words.
static inline int64_t kcall_ns_arg(uint32_t lo, uint32_t hi)
{
    return (int64_t)(((uint64_t)hi << 32) | lo);
}

// TimerTimeout: ns bounds t's next blocking kernel call (armed by thread.c's block; both
// dispatchers clear it after any other call). Touches t alone, so it runs shared too.
static inline int kcall_timer_timeout(struct thread *t, int64_t ns)
{
    if (ns < 0)
        return -EINVAL;
    t->timeout_ns = (uint64_t)ns;
    return 0;
}

#endif
