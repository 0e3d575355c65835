// SPDX-License-Identifier: MIT
// Stacks and faults in the trace (docs/trace-events.md "Stacks and faults"): the SYSTEM
// STACK events of the capture's stack sampling (KTRACE_STACKSAMPLE, tracelogger -p HZ) and
// of a fault, and the FAULT event. Sampling runs from the profile timer (kernel/kprof.c) and
// costs nothing while it is off; a sample walks the interrupted thread's stack with the same
// unwinders as D's ustack( )/stack( ) (kernel/unwind.h), bounded and fault-safe.
#ifndef KERNEL_KTRACE_STACK_H
#define KERNEL_KTRACE_STACK_H

#include <kernel/kernel.h>
#include <kernel/arch.h>

struct thread;

// Nanoseconds between two samples on a CPU; 0: sampling off (the default).
extern uint32_t ktrace_stack_period;
// The highest rate: the profile provider's (profile-5000, an interval of 200 us).
#define KTRACE_STACK_MAX_HZ 5000u

// KTRACE_STACKSAMPLE(hz): sample hz times a second on each CPU (1 .. KTRACE_STACK_MAX_HZ from
// the profile timer; 1 .. TICK_HZ on a board without one, where a sample is taken at the first
// tick at or after its time), 0 to stop. The times are the period's (1e9 / hz ns) multiples
// since boot. Returns hz, or -EINVAL. The caller then arms the profile timer (kprof_update).
int ktrace_stack_set_rate(uint32_t hz);

// kernel/kprof.c on this CPU at `now` (ns since boot): when a sample is due, its time moves on
// (once, keeping its phase, however late: trace/period_due.h) and the running thread's stack is
// recorded; true, and in *ts the time the STACK event was stamped with (low cycle word), when
// it recorded one. ktrace_stack_next: CPU cpu's next sample time, 0 when sampling is off.
bool ktrace_stack_due(uint64_t now, uint32_t *ts);
uint64_t ktrace_stack_next(unsigned cpu);

// One STACK event of kind (trace/kev.h KEV_STACK_USER or KEV_STACK_FAULT): t's user stack
// as it entered the kernel.
void ktrace_stack_user(const struct thread *t, unsigned kind);

// A thread of a process faulted (kernel/main.c): the FAULT event and the thread's STACK into
// the ring, and proc:::fault for D, at this one site (kernel/ktrace_fault.c).
void ktrace_fault(struct thread *t, int sig, const struct arch_fault_where *where);

#endif
