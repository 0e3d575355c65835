// SPDX-License-Identifier: MIT
// Host stand-ins for the arch and board layers, and helpers to build kernel states in unit
// tests: processes over host buffers, threads made current, results read back.
#ifndef KSTUB_H
#define KSTUB_H

#include <kernel/thread.h>
#include <kernel/proc.h>

extern char kstub_console[4096];
extern unsigned kstub_console_len;
extern uint64_t kstub_cycles;
extern uint32_t kstub_irq_enabled;
extern uint32_t kstub_irq_pending;

// Resets every kernel subsystem and the stubs.
void kstub_reset(void);
// A live process whose RAM is a host buffer (below 4 GB: the tests link with -no-pie).
struct proc *kstub_proc(int pid, void *ram, uint32_t ram_size, uint32_t flags);
// A thread of p (NULL: kernel) at prio, READY on its queue.
struct thread *kstub_thread(struct proc *p, int prio);
// Takes t off the ready queue and makes it the running thread.
void kstub_run(struct thread *t);
int32_t kstub_result(const struct thread *t);
uint32_t kstub_addr(const void *p);

#endif
