// SPDX-License-Identifier: MIT
// The profile provider's timer work (kernel/kprof.c): on each CPU, the capture's stack samples
// (tracelogger -p, kernel/ktrace_stack.c) and D's profile-N and tick-N probes (kernel/kdtrace.c)
// at their own times, from each CPU's profile timer (kernel/ptimer.h) where the board has one,
// else from the tick. Runs inside the kernel, interrupts off; on several CPUs only in
// exclusive entries (the profile timer's interrupt is always taken exclusive), so its callers'
// schedules need no lock of their own.
#ifndef KERNEL_KPROF_H
#define KERNEL_KPROF_H

#include <kernel/kernel.h>

// KENTRY_PROFILE on this CPU: the samples and probes due, then the timer armed for the next.
void kprof_expired(void);
// A timer interrupt of this CPU (kernel_tick_is: it took the kernel's tick) in the traced
// tick path: the same work where the board has no profile timer; nothing where it has one.
void kprof_tick(bool kernel_tick_is);
// The schedules changed (a D program started or stopped, the sample rate changed): every
// online CPU's timer is armed for its next time, or stopped when it has none.
void kprof_update(void);

// A time in nanoseconds since boot as counter cycles, rounded up, so that the counter's time of
// the result, in ktimer_cycles_to_ns, is never before it.
uint64_t kprof_ns_to_cycles(uint64_t ns);

#endif
