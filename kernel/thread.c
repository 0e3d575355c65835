// SPDX-License-Identifier: MIT
// The thread pool, blocking and unblocking, and priority inheritance bookkeeping.
// A blocked thread records its wait queue (t->waitq) so that a timeout or a kill can take it
// off without knowing what it waited for; the subsystem that owns the state is told through
// ipc_thread_gone() / sync_waiter_gone() to undo anything else.
#include <kernel/thread.h>
#include <kernel/sched.h>
#include <kernel/proc.h>
#include <kernel/ipc.h>
#include <kernel/sync.h>
#include <kernel/arch.h>
#include <kernel/board.h>
#include <kernel/ktrace_kcall.h>
#include <kernel/smp.h>

struct thread k_threads[KMAX_THREADS];

// Ticks and the cycle counter are separate clocks; a tick may come early by the cycle
// counter (QEMU catching up on missed ticks, for one). A sleep or timeout lasts at least what
// was asked by ClockTime(): if the counter is not there yet, wait one more tick.
static void thread_timeout_fired(struct ktimer *tm)
{
    struct thread *t = container_of(tm, struct thread, timeout);
    if (board_cycles() < t->wake_cycles) {
        ktimer_start(&t->timeout, k_ticks + 1);
        return;
    }
    if (t->state == THS_NANOSLEEP)
        thread_unblock(t, 0);
    else if (t->state == THS_CONDVAR)
        sync_cond_timeout(t);
    else
        thread_unblock(t, -ETIMEDOUT);
}

struct thread *thread_alloc(struct proc *p)
{
    if (p && !proc_may_take_from(p, k_threads, KMAX_THREADS, proc, KLIM_THREADS)) // a tree's
        return NULL;
    for (unsigned i = 0; i < KMAX_THREADS; i++) {
        struct thread *t = &k_threads[i];
        if (t->in_use)
            continue;
        uint16_t gen = (uint16_t)(t->gen + 1);
        kmemset(t, 0, sizeof(*t));
        t->in_use = true;
        t->index = (uint16_t)i;
        t->gen = gen ? gen : 1;
        t->proc = p;
        thread_set_trace_ids(t, 0, p ? 0u : i + 1u); // a process's thread: with its tid
        t->state = THS_DEAD;
        t->policy = SCHED_POLICY_RR;
        t->slice = RR_TIMESLICE;
        list_init(&t->qlink);
        list_init(&t->plink);
        list_init(&t->held_mutexes);
        ktimer_init(&t->timeout, thread_timeout_fired);
        return t;
    }
    return NULL;
}

struct thread *thread_by_tid(struct proc *p, int tid)
{
    struct list *pos;
    if (!p)
        return NULL;
    list_for_each(pos, &p->threads) {
        struct thread *t = list_entry(pos, struct thread, plink);
        if (t->tid == tid)
            return t;
    }
    return NULL;
}

void thread_set_name(struct thread *t, const char *name)
{
    kstrlcpy(t->name, name, sizeof(t->name));
}

void thread_set_result(struct thread *t, int32_t ret)
{
    arch_set_result(t, (uint32_t)ret);
}

void thread_set_result64(struct thread *t, uint64_t ret)
{
    arch_set_result2(t, (uint32_t)ret, (uint32_t)(ret >> 32));
}

// Priority-ordered insert: after every thread of equal or higher priority (FIFO among equals).
void waitq_insert(struct list *q, struct thread *t)
{
    struct list *pos;
    list_for_each(pos, q) {
        if (list_entry(pos, struct thread, qlink)->prio < t->prio)
            break;
    }
    list_insert_before(pos, &t->qlink);
    t->waitq = q;
}

static inline __attribute__((always_inline)) void block(struct thread *t, uint8_t state,
                                                       struct list *q)
{
    KASSERT(t->state == THS_RUNNING, "blocking a thread that is not running");
    t->state = state;
    t->waitq = NULL;
    if (q)
        waitq_insert(q, t);
    if (t->timeout_ns) {
        thread_arm_timeout(t, t->timeout_ns);
        t->timeout_ns = 0;
    }
}

void thread_block(struct thread *t, uint8_t state, struct list *q)
{
    block(t, state, q);
    ktrace_state(t);    // last: the hook's call is a tail call
}

void thread_block_quiet(struct thread *t, uint8_t state, struct list *q)
{
    block(t, state, q);
}

// Takes t off whatever it waits for: its timeout, its wait queue, and the state the owning
// subsystem keeps for a thread in its blocked state.
static void thread_leave_wait(struct thread *t)
{
    uint8_t state = t->state;
    ktimer_stop(&t->timeout);
    if (t->waitq) {
        list_unlink(&t->qlink);
        t->waitq = NULL;
    }
    if (state == THS_SEND || state == THS_RECEIVE || state == THS_REPLY)
        ipc_thread_gone(t);
    else if (state == THS_MUTEX || state == THS_CONDVAR)
        sync_waiter_gone(t);
    t->wait_child = false;
}

// What every unblock does before the thread goes on a ready queue.
static void unblock_prepare(struct thread *t, int32_t ret)
{
    KASSERT(t->state != THS_READY && t->state != THS_RUNNING && t->state != THS_DEAD,
            "unblocking a thread that is not blocked");
    thread_leave_wait(t);
    thread_set_result(t, ret);
}

// The READY event, with several CPUs, may be recorded by the scheduler, before another CPU
// can run t (sched.c, TRACE ORDER): so the ready queue's call records it, not this.
void thread_unblock(struct thread *t, int32_t ret)
{
    unblock_prepare(t, ret);
    sched_make_ready(t, false);
}

void thread_unblock_quiet(struct thread *t, int32_t ret)
{
    unblock_prepare(t, ret);
    sched_make_ready_quiet(t, false);
}

void thread_unblock_traced(struct thread *t, int32_t ret)
{
    unblock_prepare(t, ret);
    sched_make_ready_traced(t, false);
}

void thread_destroy(struct thread *t, int32_t status)
{
    struct proc *p = t->proc;

    // Several CPUs, running on another CPU: its context is that CPU's until it enters the
    // kernel, so it is not freed from here. It is marked, its CPU interrupted, and
    // kernel_entry() destroys it there (as if it had ended itself). Until then it counts as
    // gone for proc_exit().
    if (KSMP && t->state == THS_RUNNING && t != k_current) {
        if (!t->dying) {
            t->dying = true;
            t->dying_status = status;
            smp_kick_once(t->cpu);
        }
        return;
    }
    if (t->state == THS_READY)
        sched_remove(t);
    thread_leave_wait(t);
    sync_thread_gone(t);
    kuring_thread_gone(t);      // its own ring's last events, before it is DEAD
    thread_set_state(t, THS_DEAD);
    t->kc_trace = 0;
    t->exit_status = status;

    // A joinable thread stays as a zombie (DEAD, still on the process list) until joined;
    // a joiner already waiting takes the status now.
    bool reaped = t->detached || !p;
    if (p) {
        struct list *pos;
        p->nthreads--;
        list_for_each(pos, &p->threads) {
            struct thread *j = list_entry(pos, struct thread, plink);
            if (j->state == THS_JOIN && !j->wait_child && j->join_tid == t->tid) {
                if (j->info_buf)
                    *(volatile int32_t *)(uintptr_t)j->info_buf = status;
                thread_unblock(j, 0);
                reaped = true;
                break;
            }
        }
    }
    if (reaped)
        thread_free(t);
    if (p && p->nthreads == 0)
        proc_last_thread_gone(p, status);
}

void thread_free(struct thread *t)
{
    kuring_thread_gone(t);      // (when it was not destroyed first: a process's teardown)
    ktrace_thread(t, KEV_TH_DESTROY);
    list_unlink(&t->plink);
    t->in_use = false;
    t->state = THS_DEAD;
}

void thread_arm_timeout(struct thread *t, uint64_t ns)
{
    uint64_t hz = board_cycles_per_sec();
    t->wake_cycles = board_cycles() + (ns / 1000000000u) * hz + (ns % 1000000000u) * hz / 1000000000u;
    ktimer_start_after(&t->timeout, ktimer_ns_to_ticks(ns));   // (k_ticks read under its lock)
}

// What asks for a recomputation of t's priority: it tells the trace's cause apart where the
// numbers alone cannot (a server at its client's priority that also inherited from a mutex
// waiter drops back to the client's priority when the mutex goes: inheritance ended, not a
// message). Constants at every call site.
enum prio_why {
    PRIO_BY_CHANGE = 0,     // a mutex's waiters or a chain of owners changed
    PRIO_BY_CALL,           // ThreadSetPrio / SchedSet on t's own priority
    PRIO_BY_MSG,            // the message path set or cleared t's ipc_prio (ipc.c)
};

// Why t's priority becomes p (trace/kev.h KEV_PRIO_*): the message's priority, when the message
// path changed it; inherited from a mutex waiter; or back to its own (by a call, or as an
// inheritance ends). A mutex's priority is above the message's, so the first two exclude each
// other.
static inline unsigned prio_cause(const struct thread *t, uint8_t p, uint8_t inh,
                                  enum prio_why why)
{
    if (why == PRIO_BY_MSG && t->ipc_prio && p == t->ipc_prio)
        return KEV_PRIO_MSG;
    if (inh == p && inh > t->base_prio && inh > t->ipc_prio)
        return KEV_PRIO_MUTEX;
    return why == PRIO_BY_CALL ? KEV_PRIO_CALL : KEV_PRIO_INH_END;
}

// The priority lock (rank KLOCK_RANK_PRIO, kernel/klock.h): in shared mode, every change of a
// thread's effective priority that another CPU may make at the same time, and every change of a
// mutex's waiters (who they are, their order), which the inherited priority is read from.
// Who writes a thread's `prio` on the shared side, and why that is all:
// - the message path (ipc.c) its server's: its own (receive, reply) or that of a server
//   RECEIVE-blocked and taken off its queue (send), which nobody else can reach. While that
//   server holds no mutex no other CPU can write its priority (the two below need a mutex it
//   holds, or its MUTEX-blocked state), and its list of mutexes stays empty (only it, running,
//   or a hand-over to it, MUTEX-blocked, adds one): the lock is not taken, and the plain round
//   trip touches no new line. Holding one, it recomputes under the lock (thread_update_prio).
// - a contended MutexLock (sync.c): the chain of owners raised to the waiter's priority
//   (thread_raise_prio_shared), under the lock, each owner's write under every run-queue
//   lock (sched_set_prio_shared: another CPU may be queueing it);
// - a MutexUnlock that hands its mutex over: the new owner's and the unlocker's (under both);
//   a CondWait the same for the mutex it gives up, and a CondSignal or CondBroadcast those of
//   the waiters it wakes (a mutex taken) or of the owners they queue behind (a raise).
// Invariant outside the lock, which makes a raise a maximum: every thread's prio is
// max(ipc_prio or base_prio, the first waiter's prio of each mutex it holds), but for the
// instant between a server's ipc_prio store and its recomputation (which reads everything).
static struct kspin prio_lock_word;

void prio_lock(void)
{
    kspin_lock(&prio_lock_word, KLOCK_RANK_PRIO);
}

void prio_unlock(void)
{
    kspin_unlock(&prio_lock_word, KLOCK_RANK_PRIO);
}

// A waiting thread's priority becomes p: its place in its queue's priority order. With several
// CPUs a sole waiter stays where it is, so that a mutex's waiters are never seen empty meanwhile
// (sync.c's shared unlock looks at them under the mutex's lock only, not the priority lock).
static inline void waitq_move(struct thread *t, uint8_t p)
{
    struct list *q = t->waitq;
    t->prio = p;
    if (KSMP && q->next == &t->qlink && q->prev == &t->qlink)
        return;
    list_unlink(&t->qlink);
    waitq_insert(q, t);
}

// t's effective priority becomes p: the trace's PRIO_CHANGE (its one site; the cause is computed
// only when it is recorded), and t's place on the ready queue or the wait queue it is on. On the
// shared side (`shared`: thread_raise_prio_shared) a thread on a queue that is not a mutex's
// keeps its place: that queue's order is its own lock's (a channel's, a semaphore's), not held
// here; the raise goes exclusive when it finds one (thread_raise_prio_shared_ok), so this is a
// thread that blocked there on another CPU meanwhile (docs/smp.md, "Priority inheritance"). In
// a shared entry a thread on no wait queue is another CPU's to queue or take too
// (sched_set_prio_shared), unless it is `owned`: this CPU's running thread, or a server this
// entry took off its channel, which no other CPU can make ready (thread_update_prio).
static inline __attribute__((always_inline)) void prio_set(struct thread *t, uint8_t p,
                                                           uint8_t inh, enum prio_why why,
                                                           const bool traced, const bool shared,
                                                           const bool owned)
{
    if (traced && KTRACE_ON(KEV_C_SYSTEM))   // inline: a message's server changes twice
        ktrace_prio_traced(t, p, prio_cause(t, p, inh, why));
    if (t->state == THS_READY) {
        if (smp_in_shared()) {
            sched_set_prio_shared(t, p);
            return;
        }
        sched_remove(t);
        t->prio = p;
        sched_make_ready(t, false);
    } else if (t->waitq && (!shared || t->state == THS_MUTEX)) {
        waitq_move(t, p);
    } else {
        if (!owned && smp_in_shared()) {
            sched_set_prio_shared(t, p);
            return;
        }
        if (KSMP && p < t->prio && t->state == THS_RUNNING)
            sched_running_prio_lowered();
        t->prio = p;
    }
}

// The next thread down a chain of mutex owners from t: the owner of the mutex t waits for.
static inline struct thread *chain_next(const struct thread *t)
{
    return (t->state == THS_MUTEX && t->wait_mutex) ? t->wait_mutex->owner : NULL;
}

// The body of thread_update_prio and its twins; `traced` and `why` are constants in each.
// The message calls' untraced copies (ipc.c) take the one without the PRIO_CHANGE hook, as
// they take their state changes' (nothing can be recorded on an untraced entry).
static inline __attribute__((always_inline)) void update_prio(struct thread *t,
                                                              const bool traced, enum prio_why why,
                                                              const bool owned)
{
    // Follow the chain of mutex owners; bounded so that a cycle (deadlock) cannot hang us.
    for (int depth = 0; t && depth < KMAX_THREADS; depth++) {
        uint8_t p = t->ipc_prio ? t->ipc_prio : t->base_prio;
        uint8_t inh = KSMP && list_empty(&t->held_mutexes) ? 0 : sync_inherited_prio(t);
        if (inh > p)
            p = inh;
        if (p == t->prio)
            return;
        prio_set(t, p, inh, why, traced, false, owned);
        if (KSMP && owned)
            return;         // (it is not MUTEX-blocked: no chain goes on from it)
        why = PRIO_BY_CHANGE;   // the owners down the chain change by inheritance
        t = chain_next(t);
    }
}

// The priority lock around a recomputation, when t holds a mutex (see prio_lock above); with
// one CPU the recomputation alone, whose chain is every owner's (sync.c's too).
static inline __attribute__((always_inline)) void update_prio_locking(struct thread *t,
                                                                      const bool traced,
                                                                      enum prio_why why)
{
    if (!KSMP) {
        update_prio(t, traced, why, false);
        return;
    }
    if (list_empty(&t->held_mutexes)) {
        update_prio(t, traced, why, true);
        return;
    }
    prio_lock();
    update_prio(t, traced, why, true);
    prio_unlock();
}

void thread_update_prio_locked(struct thread *t)
{
    update_prio(t, true, PRIO_BY_CHANGE, false);
}

bool thread_raise_prio_shared_ok(const struct thread *t, uint8_t p)
{
    for (int depth = 0; t && t->prio < p && depth < KMAX_THREADS; depth++) {
        if (t->waitq && t->state != THS_MUTEX)
            return false;
        t = chain_next(t);
    }
    return true;
}

// Each owner below p is raised to p: with the waiter just queued that is exactly what
// update_prio would compute (the invariant at prio_lock), and it reads no list of held
// mutexes, which their running owners change on other CPUs under the mutexes' locks alone. A
// cycle (a deadlock) ends where the threads are already at p; the bound is a second guard.
void thread_raise_prio_shared(struct thread *t, uint8_t p)
{
    for (int depth = 0; t && t->prio < p && depth < KMAX_THREADS; depth++) {
        prio_set(t, p, p, PRIO_BY_CHANGE, true, true, false);
        t = chain_next(t);
    }
}

void thread_update_prio(struct thread *t)
{
    update_prio_locking(t, true, PRIO_BY_CHANGE);
}

void thread_update_prio_msg(struct thread *t)
{
    update_prio_locking(t, true, PRIO_BY_MSG);
}

void thread_update_prio_quiet(struct thread *t)
{
    update_prio_locking(t, false, PRIO_BY_MSG);
}

void thread_set_base_prio(struct thread *t, uint8_t prio)
{
    t->base_prio = prio;
    update_prio(t, true, PRIO_BY_CALL, false);
}
