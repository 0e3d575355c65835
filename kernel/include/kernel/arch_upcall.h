// SPDX-License-Identifier: MIT
// What an architecture calls back in the kernel: the one header of the core and the tracing
// layer that kernel/arch/<arch>/ includes (the layers: docs/ARCHITECTURE.md, held to the code
// by test_kernel_layers.sh). The core calls the arch through kernel/arch.h, kernel/smp.h and
// kernel/arch_trace.h; the arch answers through the upcalls declared below and no other, and
// reads the objects the core hands it (struct thread's saved context, struct proc's memory).
// Some are inline (the shared side's fast path, a traced entry's user events): declared here
// again, defined where their code lives.
#ifndef KERNEL_ARCH_UPCALL_H
#define KERNEL_ARCH_UPCALL_H

#include <kernel/thread.h>
#include <kernel/proc.h>
#include <kernel/ktrace.h>
#include <kernel/ktrace_kcall.h>
#include <kernel/kentry_shared.h>

struct fbt_regs;

// ---- entering the kernel (kernel/main.c) ------------------------------------------------------
// The boot code's end: brings the subsystems up and starts the image's first program.
_Noreturn void kernel_main(void);
// Every entry from a thread (the contract in kernel/arch.h), untraced or while tracing runs.
void kernel_entry(unsigned kind);
void kernel_entry_traced(unsigned kind);
// One of the two as ktrace_kernel_on says now: for work an entry left (rare), whose own call
// may have started or stopped tracing since the arch chose the entry's copy.
void kernel_entry_now(unsigned kind);

// ---- several CPUs ------------------------------------------------------------------------------
// A starting CPU's first turn in the kernel (under the lock): it is online and has chosen
// the thread to run (its current).
void kernel_cpu_online(void);
// A CPU's timer interrupt taken on the shared side while tracing runs (kernel/main.c): its
// events and its own slice. took: what this CPU's claim of the kernel's tick counted (from, to
// of k_ticks: kernel/ktimer.c), both 0 for its share of a period another CPU took.
void kernel_tick_traced_shared(const struct ktick_span *took, unsigned cpu_periods);
// The shared side of the big-reader lock (kernel/klock.h): its kernel calls and its interrupts
// (kernel/kentry_shared.h, irq.c, sched.c, ktimer.c), a thread's binding to a CPU's device
// (sched.c), the kernel lock's slow path (kernel/kunmap.h), and a traced entry's user events
// drained before the lock (kernel/ktrace_kcall.h).
#if KMAX_CPUS > 1
static inline bool kernel_entry_shared(struct thread *t, const bool traced);
static inline bool kentry_choose_shared_begin(struct thread *t, const bool traced);
static inline void kentry_choose_shared_end(struct thread *t, const bool traced);
static inline void kunmap_wait_begin(struct cpu *c);
#endif
bool irq_shared_ok(int irq);
void irq_dispatch_shared(unsigned irq);
void sched_tick_shared(unsigned periods);
void sched_bind_fixed(struct thread *t, uint32_t mask);
enum ktick_shared ktimer_tick_shared(struct ktick_span *span);
void kunmap_waited(struct cpu *c);
static inline void kuring_drain_unlocked(struct thread *t);
// A reschedule IPI taken: its INT pair (kernel/ktrace.h).
static inline void ktrace_ipi(void);

// ---- faults, memory, boot files ---------------------------------------------------------------
// The fbt trap (kernel/kfbt_fire.c), from the kernel's fault path: true when pc is an fbt site.
bool kfbt_trap(struct fbt_regs *r, uintptr_t pc);
// A process's memory, checked (kernel/kview.h): the pid probes' emulation reads and writes it,
// the fault path and the user unwinders read it (unwind_read_user: struct unwind_mem's reader,
// ctx the struct proc, kernel/unwind_read.c).
bool proc_can_read(const struct proc *p, uint32_t addr, uint32_t len);
bool proc_can_write(const struct proc *p, uint32_t addr, uint32_t len);
int unwind_read_user(const void *ctx, uint64_t addr, void *dst, unsigned n);
// A file the boot loader handed the kernel (kernel/bootfile.h).
int bootfile_add(const char *name, uint32_t len, uintptr_t start, uint32_t size);

#endif
