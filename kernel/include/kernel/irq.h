// SPDX-License-Identifier: MIT
// Interrupts: kernel drivers attach a handler; processes with KAPP_F_IO attach an event, and
// the interrupt then arrives as a pulse while the line stays masked until InterruptUnmask.
#ifndef KERNEL_IRQ_H
#define KERNEL_IRQ_H

#include <kernel/kernel.h>
#include <kernel/cpu.h>

struct proc;
typedef void (*irq_handler_fn)(unsigned irq, void *arg);

void irq_init(void);
// Kernel drivers: the line is reserved for the kernel.
void irq_attach_kernel(unsigned irq, irq_handler_fn fn, void *arg);
// The pulse goes out at `prio` (the attaching thread's priority).
int irq_attach_event(struct proc *p, int prio, unsigned irq, int coid, int32_t code);
int irq_detach(struct proc *p, int id);
int irq_mask(struct proc *p, unsigned irq, int id, bool mask);
int irq_trigger(struct proc *p, unsigned irq);
void irq_dispatch(unsigned irq);
// Raises a synthetic line (KIRQ_TRACE): a pulse carrying `value` to whoever attached it.
void irq_raise_synthetic(unsigned irq, int32_t value);
void irq_proc_gone(struct proc *p);
// Several CPUs: the big-reader lock's shared side (kernel/klock.h; irq.c says what runs there). Before the
// interrupt is acknowledged, with the shared side entered: whether line irq's interrupt may be
// dispatched there (a line attached as an event, its process alive, its pulse sure to be
// queued); false leaves it to the exclusive side, nothing changed. Then the dispatch itself.
bool irq_shared_ok(int irq);
void irq_dispatch_shared(unsigned irq);
// InterruptMask / InterruptUnmask: irq_mask's answer, or KSHARED_RETRY (nothing changed) for
// what only the exclusive side does.
int irq_mask_shared(struct proc *p, unsigned irq, int id, bool mask);

extern uint64_t k_irq_count;

#endif
