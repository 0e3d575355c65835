// SPDX-License-Identifier: MIT
// The kernel's side of one user-event ring (kernel/kuring.c): a process's shared ring
// (struct proc.ur) and, on boards with several CPUs, each thread's own (struct thread.ur).
// Kernel memory: the one copy of the ring's state the kernel trusts. As large as the
// process's fields it replaced on one CPU (netduinoplus2's kernel RAM has no byte to spare).
#ifndef KERNEL_KURING_STATE_H
#define KERNEL_KURING_STATE_H

#include <stdint.h>
#include <stdbool.h>
#include <kernel/cpu.h>      // KMAX_CPUS
#include <trace/trace_ring.h>   // trace_lock

struct kuring {
    uint32_t addr;          // the ring (struct kuser_ring) in the process's RAM, or 0
    uint32_t mask;          // records in the ring - 1
    uint32_t tail;          // records consumed: the kernel's copy, the one it trusts
    uint32_t last;          // the time given to the last record emitted (its order in time)
    uint32_t skip_before;   // a capture began: skip records stamped before this
#if KMAX_CPUS > 1
    uint32_t lock;          // the fields above and the drain (kuring.c, LOCKING)
#endif
    bool     have_last;
    bool     skip_old;
};

// The ring's lock (several CPUs; with one, nothing): the trace ring's spinlock.
#if KMAX_CPUS > 1
static inline void kuring_lock(struct kuring *k) { trace_lock(&k->lock); }
static inline void kuring_unlock(struct kuring *k) { trace_unlock(&k->lock); }
#else
static inline void kuring_lock(struct kuring *k) { (void)k; }
static inline void kuring_unlock(struct kuring *k) { (void)k; }
#endif

#endif
