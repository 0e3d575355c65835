// SPDX-License-Identifier: MIT
// Per-process user-event rings: 2-word user events without a kernel call, isolation kept.
//
// The ring (struct kuser_ring, uapi/ktrace.h) lies in the process's own RAM, which only that
// process (and the kernel) can write: no MPU region or page is spent on it. The protocol:
//   kernel:  at registration, writes every record's tag with the sequence of the lap before
//            its first use: uncommitted (kuring_register).
//   process: reserve record h with an atomic increment of `head` (only while
//            h - tail < nrec, else it makes the INSERTSUSEREVENT kernel call instead, which
//            drains the ring first, so a full ring loses nothing); write ts, a, b; then store
//            `tag` = (h & 0xffff) << 16 | code, the commit.
//   kernel:  at the process's next traced kernel entry (kuring_drain_current, main.c), before
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
// could otherwise inflate the loss count at will, issue 25 item 3) but as rejected, in their
// own counter (KTRACE_QUERYEVENTS' `rejected`, this capture's total) and attributed to the
// pid by a SYSTEM URING_BAD event [pid, records rejected | KEV_URING_GIVEN_UP when the ring
// was given up], one per drain that rejected any. A process can lose or garble only its own
// events: what it writes is read as 2-word USER events of its own pid, after its filters.
//
// The kernel touches a process's ring only while that process is current (its memory is the
// one mapped): registration and the drain. A new capture only marks every ring (kernel
// memory); each one's next drain skips the records stamped before the capture began.
#include <kernel/kuring.h>
#include <kernel/ktrace.h>
#include <kernel/kdtrace.h>
#include <kernel/kernel.h>
#include <d/dprobes.h>

static uint32_t rejected;          // records rejected this capture, every process

uint32_t kuring_rejected(void) { return rejected; }

// Records written while no capture ran are not this capture's events: each ring's next drain
// skips those stamped before now (ur_skip_before), without touching any process's memory here.
void kuring_new_capture(void)
{
    uint32_t now = trace_port_now32();
    rejected = 0;
    for (unsigned i = 0; i < KMAX_PROCS; i++) {
        struct proc *p = &k_procs[i];
        if (p->state != PROC_ALIVE || !p->ur_addr)
            continue;
        p->ur_skip_old = true;
        p->ur_skip_before = now;
        p->ur_have_last = false;
    }
}

int kuring_register(struct proc *p, uint32_t addr, uint32_t nrec)
{
    if (nrec == 0) {
        kuring_forget(p);
        return 0;
    }
    if (nrec > KUSER_RING_MAX || (nrec & (nrec - 1u)) || (addr & 3u))
        return -EINVAL;
    uint32_t len = (uint32_t)sizeof(struct kuser_ring) + nrec * (uint32_t)sizeof(struct kuser_rec);
    if (!proc_can_write(p, addr, len))
        return -EFAULT;
    if (p->ur_addr == addr && p->ur_mask == nrec - 1u)
        return 0;   // already: two threads' first inserts both asked; keep what it holds
    kuring_forget(p);   // the ring it had, if any: what it leaves is counted
    volatile struct kuser_ring *u = (volatile struct kuser_ring *)(uintptr_t)addr;
    p->ur_tail = u->head;
    p->ur_have_last = false;
    p->ur_skip_old = false;
    p->ur_mask = nrec - 1u;
    // Every record starts uncommitted: the tag of the lap before its first use. In a zeroed
    // ring record 0 looks committed (sequence 0, code 0) before its writer stores the tag,
    // and a drain between the reservation and the commit (a tick, or another CPU's entry)
    // emitted it as a code-0 event and lost the real one.
    for (uint32_t i = 0; i < nrec; i++) {
        uint32_t seq = p->ur_tail + i;
        u->rec[seq & p->ur_mask].tag = ((seq - nrec) & 0xffffu) << 16 | 0xffffu;
    }
    u->tail = p->ur_tail;
    u->corrupt = 0;
    u->nrec = nrec;
    p->ur_addr = addr;
    return 0;
}

// n records of p rejected (given_up: the ring too): counted and attributed, never lost.
static void reject(struct proc *p, uint32_t n, bool given_up)
{
    rejected += n;
    trace_emit_simple(&ktrace, KEV_C_SYSTEM, KEV_SYS_URING_BAD, (uint32_t)p->pid,
                      n | (given_up ? KEV_URING_GIVEN_UP : 0u));
}

static void give_up(struct proc *p, volatile struct kuser_ring *u, uint32_t claimed)
{
    p->ur_addr = 0;
    u->nrec = 0;
    u->corrupt = 1;
    reject(p, claimed > p->ur_mask + 1u ? p->ur_mask + 1u : claimed, true);
}

// p's ring is forgotten: unregistered, replaced by another, or p ends (red-team rerun of
// issue 25). Its committed records go into the trace first; the drain stops at a record
// reserved and never committed (a thread killed between its reserve and its commit, or a
// process that leaves one so), and the records left from there would vanish uncounted with the
// ring: they are the process's, so they are counted rejected for its pid (at most the ring's
// size), never lost. p's memory is still its own (as for kuring_proc_gone).
void kuring_forget(struct proc *p)
{
    kuring_drain_current(p);
    if (p->ur_addr) {
        uint32_t left = ((volatile struct kuser_ring *)(uintptr_t)p->ur_addr)->head - p->ur_tail;
        if (left)
            reject(p, left > p->ur_mask + 1u ? p->ur_mask + 1u : left, false);
    }
    p->ur_addr = 0;
}

// p ends (exits or is killed, perhaps from another CPU while one of its threads had just
// committed records): what it committed and was not drained yet reaches the trace now, as its
// last events, instead of vanishing uncounted (issue 25). Called by the teardown while p's
// memory is still its own (it is freed after), as message copies reach a process's RAM.
void kuring_proc_gone(struct proc *p)
{
    kuring_forget(p);
}

// The first drain after a capture began: tail past the committed records stamped before it
// (nobody's events), up to the first one stamped since, which ends the skipping. Apart from
// the loop below, so that the records of every other drain pay nothing for it.
static uint32_t skip_old(struct proc *p, volatile struct kuser_ring *u, uint32_t head,
                         uint32_t tail)
{
    for (; tail != head; tail++) {
        volatile struct kuser_rec *rec = &u->rec[tail & p->ur_mask];
        if ((rec->tag >> 16) != (tail & 0xffffu))
            break;                  // reserved, not committed yet: the next drain goes on
        if ((int32_t)(rec->ts - p->ur_skip_before) >= 0) {
            p->ur_skip_old = false;
            break;
        }
    }
    return tail;
}

void kuring_drain(struct proc *p)
{
    volatile struct kuser_ring *u = (volatile struct kuser_ring *)(uintptr_t)p->ur_addr;
    uint32_t head = u->head, tail = p->ur_tail, mask = p->ur_mask, bad = 0;

    if (head - tail > mask + 1u) {
        give_up(p, u, head - tail);
        return;
    }
    if (__builtin_expect(p->ur_skip_old, 0))
        tail = skip_old(p, u, head, tail);
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
        // at least a cycle after the one before.
        if (p->ur_have_last && (int32_t)(ts - p->ur_last) <= 0)
            ts = p->ur_last + 1u;   // strictly after: equal times on two CPUs merge by CPU
        p->ur_last = trace_emit_simple_at(&ktrace, KEV_C_USER, code, ts, a, b);
        p->ur_have_last = true;
        if (__builtin_expect(kdt_active, 0))
            kdt_fire_at(DPROBE_USER_EVENT, p->ur_last, code, a, b);  // the slot's time
    }
    p->ur_tail = tail;
    u->tail = tail;
    if (bad)
        reject(p, bad, false);
}
