// SPDX-License-Identifier: MIT
// The tracing layer's state the core's hooks test and every tracing file reads: the kernel's
// ring, each class's on byte (KTRACE_ON), the traced entry's one test (ktrace_kernel_on), the
// inline paths' words (ktrace_hot), and a user-event ring's state, which the core's objects
// hold. Data and inline tests only: nothing here calls into the kernel, so a file of the
// tracing layer's lower levels reads it without depending on the hooks above (ktrace.h).
#ifndef KERNEL_KTRACE_STATE_H
#define KERNEL_KTRACE_STATE_H

#include <kernel/kernel.h>
#include <kernel/cpu.h>
#include <trace/trace_ring.h>
#include <uapi/ktrace.h>

extern struct trace_ring ktrace;

// Mirror of ktrace.tr_active, one byte a class: the hooks' test.
extern uint8_t ktrace_cls_on[KEV_NCLASS];
// Non-zero while tracing runs or notifications wait: the exception entry's one test, which
// picks kernel_entry_traced over kernel_entry.
extern uint32_t ktrace_kernel_on;

#ifdef KTRACE_DISABLED
#define KTRACE_ON(cls) 0
#define KTRACE_HOOKS 0
#else
#define KTRACE_ON(cls) unlikely(ktrace_cls_on[(cls)] != 0)
#define KTRACE_HOOKS 1
#endif

// What the traced entry's inline paths read (ktrace_kcall.h), together so that they reach
// it through one address.
struct ktrace_hot {
    uint32_t kc_limit;  // KEV_KC_MAX while kernel-call events take the inline path, else 0:
                        // the entry's one compare also keeps the call number in range
    uint32_t fast;      // classes on the inline path: recorded, fast mode, no filter, no D
    uint32_t plain;     // the same in either mode (kernel-call exits are simple even when wide)
    unsigned notes;     // a bit per CPU with buffer-full notifications (or the ring's own
                        // stop) waiting for its kernel exit (ktrace.c)
};
extern struct ktrace_hot ktrace_hot;

// The kernel's side of one user-event ring (kernel/kuring.c), the tracing state the core's
// objects hold: a process's shared ring (struct proc.ur) and, on boards with several CPUs, each
// thread's own (struct thread.ur). Kernel memory: the one copy of the ring's state the kernel
// trusts. As large as the process's fields it replaced on one CPU (netduinoplus2's kernel RAM
// has no byte to spare).
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
