// SPDX-License-Identifier: MIT
// Per-process user-event rings (KTRACE_USERRING; layout in uapi/ktrace.h, protocol in
// kernel/kuring.c): a process inserts 2-word user events with plain stores into a ring in its
// own RAM, and the kernel drains them into the trace ring at the process's next traced kernel
// entry, before that entry's own events, so their order against the kernel's events holds.
#ifndef KERNEL_KURING_H
#define KERNEL_KURING_H

#include <kernel/proc.h>

// KTRACE_USERRING(addr, nrec) from p: registers (nrec a power of two <= KUSER_RING_MAX, the
// ring inside p's RAM) or, nrec 0, forgets p's ring. 0 or -EINVAL / -EFAULT.
int kuring_register(struct proc *p, uint32_t addr, uint32_t nrec);
// Records of processes' rings rejected since the capture began (KTRACE_QUERYEVENTS).
uint32_t kuring_rejected(void);
// Tracing (re)starts: records written before now are dropped unseen (they belong to no capture).
void kuring_new_capture(void);
// p ends: its committed records not drained yet go into the trace (its last events).
void kuring_proc_gone(struct proc *p);
// p's ring is forgotten (unregistered, replaced, or p ends): its committed records go into the
// trace, and those left behind a record never committed are counted rejected.
void kuring_forget(struct proc *p);
// Moves p's committed records into the trace ring. p is the current process (its RAM is the
// one mapped), called on a traced kernel entry.
void kuring_drain(struct proc *p);

// The traced entry's check: one load and a branch for a process without a ring.
static inline void kuring_drain_current(struct proc *p)
{
    if (p && __builtin_expect(p->ur_addr != 0, 0) &&
        ((const volatile struct kuser_ring *)(uintptr_t)p->ur_addr)->head != p->ur_tail)
        kuring_drain(p);
}

#endif
