// SPDX-License-Identifier: MIT
// Per-process user-event rings (KTRACE_USERRING; layout in uapi/ktrace.h, protocol in
// kernel/kuring.c): a process inserts 2-word user events with plain stores into a ring in its
// own RAM, and the kernel drains them into the trace ring at the process's next traced kernel
// entry, before that entry's own events, so their order against the kernel's events holds.
#ifndef KERNEL_KURING_H
#define KERNEL_KURING_H

#include <kernel/kview.h>
#include <kernel/ktrace.h>

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
// kuring_proc_gone, kuring_thread_gone: the core's hooks (kernel/ktrace.h). A process's end
// (or a thread's slot freed) puts its committed records not drained yet into the trace, its
// last events, and counts those left behind a record never committed rejected (kuring.c's
// kuring_forget, as for a ring unregistered or replaced). The traced entry's drains are
// inline in kernel/ktrace_kcall.h.
// Moves the committed records of ring k (p's, or one of p's threads') into the trace ring,
// under k's lock. p's memory is the one mapped.
void kuring_drain_ring(struct proc *p, struct kuring *k);

// kuring_drain_unlocked's drain while a D program runs (kuring.c), and thread t's rings
// drained now, with no look at them first (TraceEvent's insert when its ring was full): its
// own ring when it has one, else its process's.
void kuring_drain_in_shared(struct thread *t);
void kuring_drain_now(struct thread *t);

#endif
