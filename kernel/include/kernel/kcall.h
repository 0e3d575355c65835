// SPDX-License-Identifier: MIT
// Kernel-call entry: decodes the call of a thread stopped in `svc` and runs it.
#ifndef KERNEL_KCALL_H
#define KERNEL_KCALL_H

#include <kernel/kernel.h>

#include <kernel/thread.h>
#include <kernel/board.h>
#include <kernel/ktimer.h>
#include <uapi/kcall.h>
#include <stdint.h>

void kcall_dispatch(struct thread *t);
// The same for an entry while tracing runs: also records the call's entry event.
void kcall_dispatch_traced(struct thread *t);
extern uint64_t k_kcall_count;
// DebugWrite: len bytes at buf to the console (kernel/kconsole.c, which locks it); on the
// shared side too (kernel/kentry_shared.h).
int kcall_debug_write(struct thread *t, uint32_t buf, uint32_t len);

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

// ThreadSleep: t blocks for at least ns (thread.c's timeout, which the tick's expiry runs).
// Touches t and, under its own lock, the timer list: it runs shared too. The tick that ends
// the sleep runs exclusive, so it never finds t armed but not yet blocked.
static inline int kcall_sleep(struct thread *t, int64_t ns)
{
    if (ns < 0)
        return -EINVAL;
    t->timeout_ns = 0;
    thread_arm_timeout(t, (uint64_t)ns);
    thread_block(t, THS_NANOSLEEP, NULL);
    return 0;
}

// The calls that write their own 64-bit result (the dispatchers then set no other).
static inline bool kcall_result64(uint32_t n)
{
    return n == KC_ClockCycles || n == KC_ClockTime;
}

// ClockCycles (ns false) and ClockTime: the generic timer's counter, or the time in ns it
// gives, as t's 64-bit result. Touches t alone, so it runs shared too.
static inline void kcall_clock(struct thread *t, bool ns)
{
    uint64_t c = board_cycles();
    thread_set_result64(t, ns ? ktimer_cycles_to_ns(c) : c);
}

#endif
