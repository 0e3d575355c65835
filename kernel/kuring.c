// SPDX-License-Identifier: MIT
// User-event rings: 2-word user events without a kernel call, isolation kept. A process has
// one ring its threads share (struct proc.ur); on boards with several CPUs a thread may have
// its own too (struct thread.ur, KTRACE_USERRING with c = 1), so that two threads writing on
// two CPUs share no cache line: the library finds a thread's ring by its stack, then by the
// address the kernel names in a register the thread reads and cannot write, where the
// architecture has one (arch_thread_ring_hint; user/lib/trace_uring.c). Both kinds have the
// same layout and protocol. When a thread ends the kernel drains its ring a last time and
// marks it forgotten there (KUSER_RING_FORGOTTEN, kuring_thread_gone): the library's cue that
// the ring may serve another thread.
//
// The ring (struct kuser_ring, uapi/ktrace.h) lies in the process's own RAM, which only that
// process (and the kernel) can write: no MPU region or page is spent on it. The protocol:
//   kernel:  at registration, writes every record's tag with the sequence of the lap before
//            its first use: uncommitted (kuring_register).
//   process: reserve record h with an atomic increment of `head` (only while
//            h - tail < nrec, else it makes the INSERTSUSEREVENT kernel call instead, which
//            drains the ring first, so a full ring loses nothing); write ts, a, b; then store
//            `tag` = (h & 0xffff) << 16 | code, the commit.
//   kernel:  at the process's next traced kernel entry (kuring_drain_thread: the thread's own
//            ring, then the process's; before the kernel lock on SMP, cpu.c), before
//            that entry's own events, emits every record from its own tail whose tag carries
//            the expected sequence, stopping at the first one not committed yet (a thread of
//            the process preempted between reserve and commit); then publishes its tail.
// Every switch away from a process is a kernel entry with that process current, so its
// records reach the trace before any later kernel event: the order holds. Timestamps are
// kept when they lie between the ring's last event and now, else replaced by now: one rule
// (trace_time_clamp) for the trace's slot and D's `timestamp`, which takes the slot's time.
//
// What the kernel trusts: nothing in the ring but what it checks. Its own tail (proc.ur_tail)
// is kept in kernel memory; a record with an event code beyond KEV_EVENT_MASK is rejected;
// a head more than nrec records ahead of the tail means the ring is garbage: the kernel gives
// the ring up (writes nrec 0 and corrupt 1 there, so the library goes back to kernel calls)
// and rejects the records it claimed (at most nrec: the most the ring can hold). Rejected
// records are the process's doing, not the system's: they are never counted lost (a process
// could otherwise inflate the loss count at will) but as rejected, in their
// own counter (KTRACE_QUERYEVENTS' `rejected`, this capture's total) and attributed to the
// pid by a SYSTEM URING_BAD event [pid, records rejected | KEV_URING_GIVEN_UP when the ring
// was given up], one per drain that rejected any. A process can lose or garble only its own
// events: what it writes is read as 2-word USER events of its own pid, after its filters.
//
// The kernel touches a process's ring only while that process is current (its memory is the
// one mapped): registration and the drain. A new capture only marks every ring (kernel
// memory); each one's next drain skips the records stamped before the capture began.
//
// LOCKING. The drain needs no kernel lock (the contract with the kernel lock's split, see
// docs/smp.md): a ring's state (struct kuring) and its drain are under the ring's own
// spinlock, kuring.lock (SMP builds; nothing on one CPU), so two threads entering the
// kernel at once on two CPUs drain a shared ring one after the other, each record once and in
// the ring's order, and a teardown on another CPU waits for a drain under way. A thread's own
// ring is drained at its own entries (its lock is then uncontended). It comes before the trace
// ring's locks (the drain emits under them) and is never held while the kernel lock is taken.
// kuring_drain_unlocked is the entry's drain before the kernel lock; with a D program
// running it drains inside the shared side (kuring_drain_in_shared), firing user:::event
// under the D lock (kdtrace.c), which it takes under the ring's: the D lock is a leaf.
#include <kernel/kuring.h>
#include <kernel/arch.h>
#include <kernel/ktrace.h>
#include <kernel/kdtrace.h>
#include <kernel/kev_emit.h>
#include <kernel/smp.h>
#include <kernel/kernel.h>
#include <kernel/kview.h>
#include <d/dprobes.h>
#include <trace/kev_rows.h>

static uint32_t rejected_all;      // records rejected this capture, every process (atomic)

uint32_t kuring_rejected(void) { return __atomic_load_n(&rejected_all, __ATOMIC_RELAXED); }

// A ring's lock (kernel/ktrace.h: nothing with one CPU).
#define ur_lock(k)   kuring_lock(k)
#define ur_unlock(k) kuring_unlock(k)

static void mark_new_capture(struct kuring *k, uint32_t now)
{
    if (!k->addr)
        return;
    ur_lock(k);
    k->skip_old = true;
    k->skip_before = now;
    k->have_last = false;
    ur_unlock(k);
}

// Records written while no capture ran are not this capture's events: each ring's next drain
// skips those stamped before now (skip_before), without touching any process's memory here.
void kuring_new_capture(void)
{
    uint32_t now = trace_port_now32();
    __atomic_store_n(&rejected_all, 0u, __ATOMIC_RELAXED);
    for (unsigned i = 0; i < KMAX_PROCS; i++)
        if (k_procs[i].state == PROC_ALIVE)
            mark_new_capture(&k_procs[i].ur, now);
    for (unsigned i = 0; KSMP && i < KMAX_THREADS; i++)
        if (k_threads[i].in_use)
            mark_new_capture(thread_ring(&k_threads[i]), now);
}

static void kuring_forget(struct proc *p, struct kuring *k);

static int do_register(struct proc *p, struct kuring *k, uint32_t addr, uint32_t nrec)
{
    if (nrec == 0) {
        kuring_forget(p, k);
        return 0;
    }
    if (nrec > KUSER_RING_MAX || (nrec & (nrec - 1u)) || (addr & 3u))
        return -EINVAL;
    uint32_t len = (uint32_t)sizeof(struct kuser_ring) + nrec * (uint32_t)sizeof(struct kuser_rec);
    if (!proc_can_write(p, addr, len))
        return -EFAULT;
    if (k->addr == addr && k->mask == nrec - 1u)
        return 0;   // already: two threads' first inserts both asked; keep what it holds
    kuring_forget(p, k);    // the ring it had, if any: what it leaves is counted
    volatile struct kuser_ring *u = (volatile struct kuser_ring *)(uintptr_t)addr;
    k->tail = u->head;
    k->have_last = false;
    k->skip_old = false;
    k->mask = nrec - 1u;
    // Every record starts uncommitted: the tag of the lap before its first use. In a zeroed
    // ring record 0 looks committed (sequence 0, code 0) before its writer stores the tag,
    // and a drain between the reservation and the commit (a tick, or another CPU's entry)
    // emitted it as a code-0 event and lost the real one.
    for (uint32_t i = 0; i < nrec; i++) {
        uint32_t seq = k->tail + i;
        u->rec[seq & k->mask].tag = ((seq - nrec) & 0xffffu) << 16 | 0xffffu;
    }
    u->tail = k->tail;
    u->corrupt = 0;
    u->nrec = nrec;
    k->addr = addr;
    return 0;
}

int kuring_register(struct proc *p, uint32_t addr, uint32_t nrec)
{
    ur_lock(&p->ur);
    int r = do_register(p, &p->ur, addr, nrec);
    ur_unlock(&p->ur);
    return r;
}

int kuring_register_thread(struct thread *t, uint32_t addr, uint32_t nrec)
{
    if (!KSMP || !t->proc)
        return -EINVAL;     // (one CPU: the process's ring serves its threads)
    struct kuring *k = thread_ring(t);
    ur_lock(k);
    int r = do_register(t->proc, k, addr, nrec);
    if (r == 0)     // the ring it holds now (0: forgotten), named where t reads it
        arch_thread_ring_hint(t, k->addr);
    ur_unlock(k);
    return r;
}

// `rejected` records of p (given_up: the ring too): counted and attributed, never lost;
// URING_BAD written by the helper the build generates from its row.
static void reject(struct proc *p, uint32_t rejected, bool given_up)
{
    __atomic_fetch_add(&rejected_all, rejected, __ATOMIC_RELAXED);
    kev_emit_uring_bad(KEV_RING, (uint32_t)p->pid, rejected, given_up);
}

static void give_up(struct proc *p, struct kuring *k, volatile struct kuser_ring *u,
                    uint32_t claimed)
{
    k->addr = 0;
    u->nrec = 0;
    u->corrupt = 1;
    reject(p, claimed > k->mask + 1u ? k->mask + 1u : claimed, true);
}

// The first drain after a capture began: tail past the committed records stamped before it
// (nobody's events), up to the first one stamped since, which ends the skipping. A record
// without a time (ts 0: the process left it to the kernel, TraceUserEventAt)
// cannot be told apart and is taken as stamped before. Reaching the head ends the skipping
// too: every record reserved from then on was reserved after the capture began (without
// this, a process whose records carry no time would have every later one skipped, unseen).
// Apart from the loop below, so that the records of every other drain pay nothing for it.
static uint32_t skip_old(struct kuring *k, volatile struct kuser_ring *u, uint32_t head,
                         uint32_t tail)
{
    for (; tail != head; tail++) {
        volatile struct kuser_rec *rec = &u->rec[tail & k->mask];
        if ((rec->tag >> 16) != (tail & 0xffffu))
            return tail;            // reserved, not committed yet: the next drain goes on
        uint32_t ts = rec->ts;
        if (ts != 0 && (int32_t)(ts - k->skip_before) >= 0)
            break;
    }
    k->skip_old = false;
    return tail;
}

// A record's event with a D program running: user:::event at the slot's time (kev_emit.h).
// Out of line, so that the drain without D is the ring's write alone.
static __attribute__((noinline)) uint32_t record_ev_d(uint32_t code, uint32_t ts, uint32_t *nowp,
                                                      uint32_t a, uint32_t b)
{
    return kev_emit_user_at(true, code, ts, nowp, a, b);
}

// Under k's lock, with p's memory readable (p owns the ring).
static void drain_locked(struct proc *p, struct kuring *k)
{
    volatile struct kuser_ring *u = (volatile struct kuser_ring *)(uintptr_t)k->addr;
    uint32_t head = u->head, tail = k->tail, mask = k->mask, bad = 0;
    // The clock, once for the whole drain (on QEMU every read takes its global lock: docs/smp.md,
    // "QEMU's host-clock ceiling"): the latest time a record may claim, and the time of those the
    // process left to the kernel (ts 0).
    uint32_t now = trace_port_now32();

    if (head - tail > mask + 1u) {
        give_up(p, k, u, head - tail);
        return;
    }
    if (__builtin_expect(k->skip_old, 0))
        tail = skip_old(k, u, head, tail);
    for (; tail != head; tail++) {
        volatile struct kuser_rec *rec = &u->rec[tail & mask];
        uint32_t tag = rec->tag;
        if ((tag >> 16) != (tail & 0xffffu))
            break;                  // reserved, not committed yet: next entry
        uint32_t code = tag & 0xffffu, ts = rec->ts, a = rec->a, b = rec->b;
        if (code > KEV_EVENT_MASK) {
            bad++;
            continue;
        }
        // The ring's order is its threads' order: on several CPUs a record may carry an
        // earlier time than one before it (stamped, then reserved), or the last one's time
        // may have been moved up to its drain; its events keep the ring's order in time, each
        // at least a cycle after the one before. A record without a time (0: the process has
        // the kernel stamp its events) takes the drain's, likewise after the one before.
        if (k->have_last && (int32_t)(ts - k->last) <= 0)  // strictly after: equal times on
            ts = (int32_t)(now - k->last) > 0 ? now : k->last + 1u;    // two CPUs merge by CPU
        if (__builtin_expect(kdt_on(KEV_C_USER), 0)) {
            uint32_t n = now;   // (its address goes out of line: now's would keep it in memory)
            k->last = record_ev_d(code, ts, &n, a, b);
            now = n;
        } else {
            k->last = kev_emit_user_at(false, code, ts, &now, a, b);
        }
        k->have_last = true;
    }
    k->tail = tail;
    u->tail = tail;
    if (bad)
        reject(p, bad, false);
}

// The entry's drain before the kernel lock, with a D program running: inside the shared side
// (kuring.h says why), for a thread not being destroyed. An exclusive entry may have stopped
// the program before this CPU got in: drain_locked asks again for each record whether D watches USER.
// (Several CPUs only.)
void kuring_drain_in_shared(struct thread *t)
{
    smp_enter_shared();
    if (!t->dying)
        kuring_drain_now(t);
    smp_exit_shared();
}

void kuring_drain_now(struct thread *t)
{
    struct kuring *own = thread_ring(t);
    if (KSMP && own->addr)
        kuring_drain_ring(t->proc, own);
    else if (t->proc)
        kuring_drain_ring(t->proc, &t->proc->ur);
}

void kuring_drain_ring(struct proc *p, struct kuring *k)
{
    ur_lock(k);
    if (k->addr)            // checked unlocked by the inline callers: again, under the lock
        drain_locked(p, k);
    ur_unlock(k);
}

// Ring k is forgotten, under its lock: unregistered, replaced by another, or its process or
// thread ends. Its committed records go into the trace first; the
// drain stops at a record reserved and never committed (a thread killed between its reserve and
// its commit, or a process that leaves one so), and the records left from there would vanish
// uncounted with the ring: they are the process's, so they are counted rejected for its pid (at
// most the ring's size), never lost. p's memory is still its own (as for kuring_proc_gone).
static void kuring_forget(struct proc *p, struct kuring *k)
{
    if (k->addr)
        drain_locked(p, k);
    if (k->addr) {          // (a drain that gave the ring up has rejected what it claimed)
        uint32_t left = ((volatile struct kuser_ring *)(uintptr_t)k->addr)->head - k->tail;
        if (left)
            reject(p, left > k->mask + 1u ? k->mask + 1u : left, false);
    }
    k->addr = 0;
}

// Drained, counted and forgotten (a teardown on another CPU waits for a drain under way first).
static void ring_gone(struct proc *p, struct kuring *k)
{
    ur_lock(k);
    kuring_forget(p, k);
    ur_unlock(k);
}

// p ends (exits or is killed, perhaps from another CPU while one of its threads had just
// committed records): what it committed and was not drained yet reaches the trace now, as its
// last events, instead of vanishing uncounted. Called by the teardown while p's
// memory is still its own (it is freed after), as message copies reach a process's RAM.
void kuring_proc_gone(struct proc *p)
{
    ring_gone(p, &p->ur);
}

// t's slot is freed (it ended, was joined or its process went): its own ring likewise, while
// its process's memory is still there; its events come before its DESTROY event. Then, still
// under the ring's lock, the ring is marked forgotten (nrec 0, corrupt KUSER_RING_FORGOTTEN,
// stored last with release): from then on the kernel never reads or writes it, so the
// library, which reads the mark with acquire, may hand the ring to a new thread
// (user/lib/trace_uring.c). A ring given up while its thread lived (k->addr 0 already) gets
// no mark: the kernel forgot it then, and the library frees that one itself (corrupt 1).
void kuring_thread_gone(struct thread *t)
{
    if (!KSMP)
        return;
    struct kuring *k = thread_ring(t);
    if (t->proc) {
        ur_lock(k);
        uint32_t addr = k->addr;
        kuring_forget(t->proc, k);
        if (addr) {
            volatile struct kuser_ring *u = (volatile struct kuser_ring *)(uintptr_t)addr;
            u->nrec = 0;
            __atomic_store_n(&u->corrupt, KUSER_RING_FORGOTTEN, __ATOMIC_RELEASE);
        }
        ur_unlock(k);
    }
    k->addr = 0;
}
