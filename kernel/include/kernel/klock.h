// SPDX-License-Identifier: MIT
// The multiprocessor kernel's locks (KMAX_CPUS > 1; with one CPU every lock is empty and its
// operations do nothing, so that portable code takes them with no #if of its own).
//
// A big-reader lock guards the kernel as a whole (kernel/arch/<arch>/smp.c):
// - EXCLUSIVE: every kernel entry but the few below. The holder sets the writer word and waits
//   until no other CPU is in the kernel, so the code it runs sees a quiescent kernel and takes
//   no other lock (it is the code of the one big lock, unchanged).
// - SHARED: the message fast path (MsgSend, MsgReceive, MsgReply, MsgError on a channel, no
//   dying thread, with a timeout or without; MsgSendPulse, and a receive that finds a pulse;
//   TimerTimeout: kernel/kentry_shared.h) and its CPU's choice of the next thread; the SYNC_*
//   calls (sync.c); the calls that touch only their caller and the clock (ClockTime,
//   ClockCycles, ThreadSelf, ProcSelf, the null call: kentry_shared.h shared_local_call); the
//   console's calls (DebugWrite, semihosting's WRITEC and WRITE0: kconsole.c's lock);
//   TraceEvent's user-event inserts (ktrace.c ktrace_insert_user); a reschedule IPI and
//   (traced too, a D program running or not) a CPU's timer interrupt: its share of a tick
//   another CPU took, or the kernel's tick itself when no kernel timer is due by it (ktimer.c
//   ktimer_tick_shared, under the timer list's lock), each with its own thread's slice
//   (sched_tick_shared) and then that choice (kentry_choose_shared_*); a device interrupt on a
//   line a process attached as an event, and InterruptMask / InterruptUnmask (kernel/irq.c). A
//   CPU sets its own word and checks the writer word; if it is set, it clears its word again
//   and the entry runs exclusive, queued behind the writer (the ticket lock is fair), rather
//   than wait for a moment with no writer, which writers that follow each other never leave.
//   CPUs in shared mode exclude one another only through the locks below.
//   Traced, the same entries run shared (KLOCK_SHARED_TRACED), with a D program running too
//   (its probes take no lock of their own: kernel/kdt_fire.c, LOCKING).
//
// Fine-grained locks, taken only in shared mode, always in increasing rank:
//   KLOCK_RANK_COND  a condition variable's waiters and the state of the threads blocking on
//                    it (sync.c): CondWait and a CondSignal/CondBroadcast with waiters take it,
//                    then the mutex they wait with (rank SYNC), one of each.
//   KLOCK_RANK_SYNC  a mutex's or semaphore's own state (owner, count, waiters) and the state
//                    of the threads blocking on it (sync.c). A shared entry holds at most one
//                    of them (and a condvar before it), and never a sync object and a channel
//                    together (no call needs both).
//   KLOCK_RANK_CHAN  a channel's queues (send_q, recv_q, pulses) and the IPC state of the
//                    threads on them or REPLY-blocked on it (state, chan, server; ipc.c)
//   KLOCK_RANK_PULSE the pulse pool (each slot's use, sender, charge) and every process's
//                    count of queued pulses (proc.npulses; ipc.c pulse_pool_lock), taken
//                    under a channel's lock to queue a pulse there or to free one received
//   KLOCK_RANK_PRIO  priority inheritance (kernel/thread.c prio_lock): every thread's effective
//                    priority where another CPU may change it too, and every mutex's waiters
//                    (membership and order). Taken under a mutex's lock (a contended
//                    MutexLock, a MutexUnlock that hands over: sync.c), and under a channel's
//                    by the message path only when its server holds a mutex (thread.c
//                    thread_update_prio); the run-queue lock after it (a READY owner requeued,
//                    the waiter blocked). The walk of the chain of owners under it takes no
//                    other mutex's lock (their waiters are this lock's) and is bounded.
//   KLOCK_RANK_RUNQ  one CPU's ready queues (sched.c struct runq: its queues, map, count of
//                    threads others may take, and its flag in rq_over), per CPU. A
//                    CPU's own is taken at its first use in a shared entry and kept until its
//                    choice; another CPU's only where it is touched (a thread made ready
//                    there, removed from there, pulled from there). Two at once only in
//                    increasing CPU id (the own one let go and taken again after a lower one),
//                    counted as one take of the rank by the check; all of them, in the same
//                    order, around a priority written where another CPU may queue its thread
//                    (sched.c sched_set_prio_shared). Every CPU's `current` is
//                    written by that CPU alone (a release store at its choice) and `kicked`
//                    by anyone (a plain store before the IPI): neither under a lock.
//   KLOCK_RANK_TIMER the timer list (ktimer.c), inside ktimer_start and ktimer_stop alone: a
//                    call that blocks with a timeout (TimerTimeout) arms its thread's timer,
//                    and waking a thread cancels its timer, on the shared side too. Expiry is
//                    the tick's, exclusive: no shared entry runs while it walks the list.
//   KLOCK_RANK_IRQ   an interrupt line's state (masked, its enable in the interrupt
//                    controller, its counts; kernel/irq.c): a device interrupt on a line
//                    attached as an event, and InterruptMask / InterruptUnmask, on the shared
//                    side. A leaf: taken with no other lock held and nothing taken under it
//                    (the interrupt's pulse is queued after its release, under the channel's
//                    lock), so its place in the numbering orders nothing; D's lock (below)
//                    ranks after it, as after every other.
//   KLOCK_RANK_D     a thread's vtimestamp clock (struct thread vt_lock; kernel/kdt_fire.c,
//                    LOCKING), taken by the D provider where the clock switches (a RUNNING
//                    event) and where a firing reads it; probes fire from hooks under any of
//                    the locks above, so it is the last rank; a leaf. No lock guards the D
//                    engine itself: firings on several CPUs run at once (d/dvm.h,
//                    CONCURRENCY); the engine's own few word locks (a stripe of its
//                    dynamic-variable hash, a speculation) are taken under any of these, with
//                    nothing under them. Locks ranked below it go through lockstat's probe
//                    (above); it does not (its firings would take it again).
//   KLOCK_RANK_CON   the console (kernel/kconsole.c): every process's partial line and the
//                    device the lines leave by, for DebugWrite and semihosting's console
//                    writes on the shared side. A leaf: taken at the call's start with no
//                    other lock held, nothing taken under it (so after D in the numbering).
// A shared entry holds at most one channel. A thread that blocked in the entry is still this
// CPU's `current` until its choice: another CPU may make it ready, but no CPU other than this
// one takes it to run before this CPU's choice has stored another `current` (sched.c, R3),
// with no lock held across the entry for it.
// The order is checked in images built with KLOCK_CHECK (make KLOCK_CHECK=1): each CPU keeps a
// mask of the ranks it holds, and taking a rank at or below one held is a kernel panic; so is
// the exclusive side's work done in a shared entry (klock_check_exclusive: a channel's queues
// touched without its lock).
#ifndef KERNEL_KLOCK_H
#define KERNEL_KLOCK_H

#include <kernel/cpu.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KLOCK_RANK_COND 0u
#define KLOCK_RANK_SYNC 1u
#define KLOCK_RANK_CHAN 2u
#define KLOCK_RANK_PULSE 3u
#define KLOCK_RANK_PRIO 4u
#define KLOCK_RANK_RUNQ 5u
#define KLOCK_RANK_TIMER 6u
#define KLOCK_RANK_IRQ 7u
#define KLOCK_RANK_D 8u
#define KLOCK_RANK_CON 9u

// A kernel call that the shared fast path cannot finish (something unusual: a failure, a
// race with a second reply) returns this before it changed anything; the entry then runs again
// under the exclusive lock. Not an errno (those are -1..-4095).
#define KSHARED_RETRY (-0x10000)

// Traced message calls take the shared fast path too (kernel/arch/aarch64/cpu.c entry_body;
// kernel/kentry_shared.h has the traced copy): the trace needs no kernel lock (trace_ring.h,
// "LOCKING"). 0 would send every traced entry to the exclusive side.
#define KLOCK_SHARED_TRACED 1

// A spinlock: a word, 0 free and 1 held (the arch's arch_spin_*). With one CPU it is empty
// (GNU C's empty struct takes no room) and every operation below does nothing.
struct kspin {
#if KMAX_CPUS > 1
    volatile uint32_t word;
#endif
};

// True when a CPU holding the ranks in `held` (bit r = rank r) may take rank `rank`.
static inline int klock_order_ok(uint32_t held, unsigned rank)
{
    return (held >> rank) == 0;
}

// lockstat's spin probes (spin-acquire, spin-spin, spin-release): a hook the tracing layer
// installs while a D program enables one of them (kernel/kdtrace.c) and takes away after
// (klock_set_probe; kernel/klock.c keeps it). While it is there every lock below D's own rank
// goes through it, which times a lock that was not free and fires the probes (after the
// acquire, after the release, as illumos's lockstat does), the lock held, in the current
// thread's context. D's lock is not probed (its firings would take it again), nor the
// console's (it ranks after D's). Each function takes and lets go of the lock itself
// (kspin_raw_*) and keeps the lock-order check.
struct klock_probe {
    void (*lock)(struct kspin *l, unsigned rank);
    void (*unlock)(struct kspin *l, unsigned rank);
};

#if KMAX_CPUS > 1
extern const struct klock_probe *klock_probe;
void klock_set_probe(const struct klock_probe *p);

// arch_spin_lock / arch_spin_unlock (a word: 0 free, 1 held) and the big-reader lock's shared
// side, arch_kernel_enter_shared / arch_kernel_exit_shared (the exclusive side is the arch's
// kernel lock), inline.
#include <arch_klock.h>

// Kernel entries that took the lock exclusive (counted under it; the arch's kernel lock), for
// SysInfo(KSYSINFO_KENTRIES_EXCLUSIVE); calls finished shared are each CPU's shared_kcalls.
extern uint64_t k_klock_exclusive_entries;

#ifdef KLOCK_CHECK
void klock_check_acquire(unsigned rank);
void klock_check_release(unsigned rank);
// Work only the exclusive side may do (a pulse queued without the channel's lock, the
// synthetic interrupt): a panic when this CPU runs a shared entry.
void klock_check_exclusive(const char *what);
#else
static inline void klock_check_acquire(unsigned rank) { (void)rank; }
static inline void klock_check_release(unsigned rank) { (void)rank; }
static inline void klock_check_exclusive(const char *what) { (void)what; }
#endif

static inline void kspin_init(struct kspin *l)
{
    l->word = 0;
}

// The lock itself, with no rank check and no probe: the probe's own take, and the run-queue
// locks' second take (sched.c), which counts as one of its rank.
static inline __attribute__((always_inline)) void kspin_raw_lock(struct kspin *l)
{
    arch_spin_lock(&l->word);
}
static inline __attribute__((always_inline)) bool kspin_raw_trylock(struct kspin *l)
{
    return arch_spin_trylock(&l->word);
}
static inline __attribute__((always_inline)) void kspin_raw_unlock(struct kspin *l)
{
    arch_spin_unlock(&l->word);
}

// What a CPU does between two looks at a word another CPU holds, outside these locks (the
// D engine's few: d/dvm.h, CONCURRENCY): the arch's hint (arch_klock.h).
static inline void kspin_relax(void)
{
    arch_spin_relax();
}

static inline __attribute__((always_inline)) void kspin_lock(struct kspin *l, unsigned rank)
{
    const struct klock_probe *p = klock_probe;
    if (__builtin_expect(p != NULL, 0) && rank < KLOCK_RANK_D) {
        p->lock(l, rank);
        return;
    }
    klock_check_acquire(rank);
    kspin_raw_lock(l);
}

static inline __attribute__((always_inline)) void kspin_unlock(struct kspin *l, unsigned rank)
{
    const struct klock_probe *p = klock_probe;
    if (__builtin_expect(p != NULL, 0) && rank < KLOCK_RANK_D) {
        p->unlock(l, rank);
        return;
    }
    klock_check_release(rank);
    kspin_raw_unlock(l);
}
#else
// One CPU: no other CPU to exclude (the kernel's entries never nest), no lock to probe.
static inline void klock_set_probe(const struct klock_probe *p) { (void)p; }
static inline void klock_check_acquire(unsigned rank) { (void)rank; }
static inline void klock_check_release(unsigned rank) { (void)rank; }
static inline void klock_check_exclusive(const char *what) { (void)what; }
static inline void kspin_init(struct kspin *l) { (void)l; }
static inline void kspin_relax(void) { }
static inline void kspin_raw_lock(struct kspin *l) { (void)l; }
static inline bool kspin_raw_trylock(struct kspin *l) { (void)l; return true; }
static inline void kspin_raw_unlock(struct kspin *l) { (void)l; }
static inline void kspin_lock(struct kspin *l, unsigned rank) { (void)l; (void)rank; }
static inline void kspin_unlock(struct kspin *l, unsigned rank) { (void)l; (void)rank; }
#endif

#endif
