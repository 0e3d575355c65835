// SPDX-License-Identifier: MIT
// Taking a map back from every CPU (kernel/kunmap.c): the trace ring or a D consumer's block
// is freed while threads of its owner may run at EL0 on other CPUs, on translation tables
// opened while the map was the process's. kunmap_others() marks each such CPU (`remap`),
// interrupts it, and returns once each is waiting for the kernel lock, which it then switches
// tables under (kunmap_waited) before anything else. docs/smp.md, "Address spaces": entries
// pay nothing for it. kcpus_hold() is the same wait for every other CPU (a program's text
// written while none runs a thread: docs/pid.md, "Several CPUs").
//
// The per-CPU words (struct cpu), both touched only on the slow paths of the kernel lock
// (kernel/arch/<arch>/smp.c) and by kunmap_others, never on an entry that finds the lock free:
//   lock_waiting  set by its CPU before it waits for the kernel lock (its ticket: a shared
//                 entry that meets a writer takes one too), cleared
//                 once it holds it, before it lets go. Read true under the exclusive lock: that CPU is in
//                 the kernel, at EL1, and gets the lock only after this holder lets go.
//   remap         set by an exclusive holder (kunmap_others), taken by its CPU in
//                 kunmap_waited, with the lock held: every marked CPU waits for the lock
//                 while the marker holds it, so every mark is taken there.
// One CPU (KMAX_CPUS == 1): nothing here.
#ifndef KERNEL_KUNMAP_H
#define KERNEL_KUNMAP_H

#include <kernel/cpu.h>
#include <stdint.h>

#if KMAX_CPUS > 1
// Under the exclusive lock, the memory [base, base + size) already taken from its process
// (its map_base/map_len or map2_*) and from this CPU's table: returns once no other CPU can
// read it from EL0 (each one whose table opened it waits for the lock, at EL1, and switches
// tables once it has it). Panics if one does not come within a second of the IPI.
void kunmap_others(uint32_t base, uint32_t size);

// Under the exclusive lock: returns once every other online CPU waits for the kernel lock, so
// that none runs a thread (at EL0) until this holder lets go. For writes to programs' text
// that another CPU may not execute meanwhile (kernel/kpid.c). The same wait, the same IPI, for
// every CPU; panics as kunmap_others does.
void kcpus_hold(void);

// The kernel lock's slow path, before it waits.
static inline void kunmap_wait_begin(struct cpu *c)
{
    c->lock_waiting = true;
}

// The same path once the lock is held (either side), before anything else: out of waiting,
// and a switch of tables if another CPU freed memory this one's table opens.
void kunmap_waited(struct cpu *c);
#else
static inline void kunmap_others(uint32_t base, uint32_t size) { (void)base; (void)size; }
static inline void kcpus_hold(void) { }
#endif

#endif
