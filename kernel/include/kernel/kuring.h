// SPDX-License-Identifier: MIT
// Per-process user-event rings (KTRACE_USERRING; layout in uapi/ktrace.h, protocol in
// kernel/kuring.c): a process inserts 2-word user events with plain stores into a ring in its
// own RAM, and the kernel drains them into the trace ring at the process's next traced kernel
// entry, before that entry's own events, so their order against the kernel's events holds.
#ifndef KERNEL_KURING_H
#define KERNEL_KURING_H

#include <kernel/proc.h>
#include <kernel/thread.h>
#include <kernel/kdtrace.h>
#include <kernel/smp.h>

// KTRACE_USERRING(addr, nrec) from p: registers (nrec a power of two <= KUSER_RING_MAX, the
// ring inside p's RAM) or, nrec 0, forgets p's ring. 0 or -EINVAL / -EFAULT.
int kuring_register(struct proc *p, uint32_t addr, uint32_t nrec);
// KTRACE_USERRING(addr, nrec, 1) from t: the same for t's own ring (several CPUs only; -EINVAL
// on one, where the process's ring serves every thread).
int kuring_register_thread(struct thread *t, uint32_t addr, uint32_t nrec);
// Records of processes' rings rejected since the capture began (KTRACE_QUERYEVENTS).
uint32_t kuring_rejected(void);
// Tracing (re)starts: records written before now are dropped unseen (they belong to no capture).
void kuring_new_capture(void);
// p ends: its committed records not drained yet go into the trace (its last events), and those
// left behind a record never committed are counted rejected (kuring.c's kuring_forget, as for a
// ring unregistered or replaced).
void kuring_proc_gone(struct proc *p);
// t's slot is freed: the same for its own ring.
void kuring_thread_gone(struct thread *t);
// Moves the committed records of ring k (p's, or one of p's threads') into the trace ring,
// under k's lock. p's memory is the one mapped.
void kuring_drain_ring(struct proc *p, struct kuring *k);

// kuring_drain_unlocked's drain while a D program runs (kuring.c).
void kuring_drain_in_shared(struct thread *t);

// One load and a branch for a ring not registered or empty (read unlocked: the drain checks
// again under the ring's lock).
static inline void kuring_drain_ring_if(struct proc *p, struct kuring *k)
{
    if (__builtin_expect(k->addr != 0, 0) &&
        ((const volatile struct kuser_ring *)(uintptr_t)k->addr)->head != k->tail)
        kuring_drain_ring(p, k);
}

// p's shared ring (p may be NULL: a kernel thread).
static inline void kuring_drain_current(struct proc *p)
{
    if (p)
        kuring_drain_ring_if(p, &p->ur);
}

// The traced entry's drain for thread t: its own ring when it has one (several CPUs: a thread
// with a ring of its own writes no other), else its process's, which the threads without one
// share. So a thread's entry reads no line another CPU's writer writes.
static inline void kuring_drain_thread(struct thread *t)
{
    struct kuring *own = thread_ring(t);
    if (KSMP && own->addr) {
        kuring_drain_ring_if(t->proc, own);
        return;
    }
    kuring_drain_current(t->proc);
}

// The traced entry's drain before it takes the kernel lock (SMP): t, this CPU's running
// thread, has its rings drained into this CPU's buffer without that lock (each ring has a lock
// of its own, kuring.c): its process's memory is the one mapped, and a teardown on another
// CPU waits for the ring's lock, then finds the ring gone. With t being destroyed, it waits for
// the lock: the drain after it (kernel_entry_body) does it. With a D program running the
// drain fires user:::event (under the D lock, kdtrace.c), so it runs inside the big-reader
// lock's shared side: the D program's block is freed by an exclusive entry (KDT_UNLOAD), which
// waits for every CPU in the shared side; outside it the drain could fire into freed memory.
static inline void kuring_drain_unlocked(struct thread *t)
{
    if (__builtin_expect(!kdt_active, 1)) {
        if (!t->dying)
            kuring_drain_thread(t);
        return;
    }
    kuring_drain_in_shared(t);
}

#endif
