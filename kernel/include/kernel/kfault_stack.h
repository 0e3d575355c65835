// SPDX-License-Identifier: MIT
// A thread's fault said as its stack's overflow (kernel/kfault_stack.c).
#ifndef KERNEL_KFAULT_STACK_H
#define KERNEL_KFAULT_STACK_H

#include <kernel/kernel.h>
#include <kernel/kpanic.h>

struct thread;

// The lowest address thread t may use of its stack: above its guard, or its stack's base.
uint32_t kfault_stack_start(const struct thread *t);
// True when fault w of thread t (its process's, in user mode) lies below its stack's start,
// near its stack pointer: its stack ran over (or into its guard).
bool kfault_stack_overflow(const struct thread *t, const struct arch_fault_where *w);

#endif
