// SPDX-License-Identifier: MIT
// Stacks and faults in the trace (docs/trace-events.md "Stacks and faults"): the SYSTEM
// STACK events of the capture's stack sampling (KTRACE_STACKSAMPLE, tracelogger -p HZ) and
// of a fault, and the FAULT event. Sampling costs one load and branch a tick while tracing
// runs and nothing otherwise; a sample walks the interrupted thread's stack with the same
// unwinders as D's ustack( )/stack( ) (kernel/unwind.h), bounded and fault-safe.
#ifndef KERNEL_KTRACE_STACK_H
#define KERNEL_KTRACE_STACK_H

#include <kernel/kernel.h>
#include <kernel/arch.h>

struct thread;

// Ticks between two samples; 0: sampling off (the default).
extern uint32_t ktrace_stack_period;

// KTRACE_STACKSAMPLE(hz): sample hz times a second (1 .. TICK_HZ, taken as every
// TICK_HZ / hz ticks), 0 to stop. Returns the rate in effect (TICK_HZ / period), or -EINVAL.
int ktrace_stack_set_rate(uint32_t hz);

// A tick on this CPU (in the traced tick path): records the running thread's stack when a
// sample is due (a per-CPU countdown of ktrace_stack_period ticks). Returns true, and in *ts
// the time the STACK event was stamped with (low cycle word), when it recorded one: D's
// profile-N decides at this tick by that time (kernel/main.c). Out of line:
// ktrace_stack_sample.
bool ktrace_stack_sample(uint32_t *ts);
static inline bool ktrace_stack_tick(uint32_t *ts)
{
    if (unlikely(ktrace_stack_period != 0))
        return ktrace_stack_sample(ts);
    return false;
}

// One STACK event of kind (trace/kev.h KEV_STACK_USER or KEV_STACK_FAULT): t's user stack
// as it entered the kernel.
void ktrace_stack_user(const struct thread *t, unsigned kind);

// A thread of a process faulted (kernel/main.c): the FAULT event and the thread's STACK into
// the ring, and proc:::fault for D, at this one site (kernel/ktrace_fault.c).
void ktrace_fault(struct thread *t, int sig, const struct arch_fault_where *where);

#endif
