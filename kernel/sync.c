// SPDX-License-Identifier: MIT
// Mutexes, condition variables and semaphores.
// Mutex: ownership passes directly to the highest-priority waiter on unlock (no barging), and
// the owner runs at least at the priority of its highest waiter (priority inheritance,
// followed along chains by thread_update_prio). A thread that dies holding a mutex releases it:
// the next owner is woken with ECANCELED so it knows the data may be inconsistent.
// Condition variable: waiting releases the mutex; a signalled waiter then queues for the mutex
// and returns only once it owns it again.
#include <kernel/sync.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/smp.h>

struct kcond {
    bool in_use;
    struct proc *owner_proc;
    struct list waiters;
    struct kspin lock;      // waiters in shared mode (KLOCK_RANK_COND: before its mutex's)
} KCPU_LINE_ALIGNED;    // (each sync object on lines of its own: kernel/cpu.h)

struct ksem {
    bool in_use;
    struct proc *owner_proc;
    int32_t count;
    struct list waiters;
    struct thread *taker;   // the last thread that took it and has not posted (the trace's
                            // SYNC_WAIT owner; a hint: a semaphore has no owner)
    struct kspin lock;      // count, waiters, taker in shared mode (KLOCK_RANK_SYNC)
} KCPU_LINE_ALIGNED;

static struct kmutex mutexes[KMAX_MUTEXES];
static struct kcond conds[KMAX_CONDS];
static struct ksem sems[KMAX_SEMS];

#define SYNC_ID_BASE 1

void sync_init(void)
{
    kmemset(mutexes, 0, sizeof(mutexes));
    kmemset(conds, 0, sizeof(conds));
    kmemset(sems, 0, sizeof(sems));
}

static struct kmutex *mutex_lookup(const struct proc *p, int id)
{
    return proc_pool_owned(mutexes, KMAX_MUTEXES, id, SYNC_ID_BASE, owner_proc, p);
}

static struct kcond *cond_lookup(const struct proc *p, int id)
{
    return proc_pool_owned(conds, KMAX_CONDS, id, SYNC_ID_BASE, owner_proc, p);
}

static struct ksem *sem_lookup(const struct proc *p, int id)
{
    return proc_pool_owned(sems, KMAX_SEMS, id, SYNC_ID_BASE, owner_proc, p);
}

int mutex_create(struct proc *p)
{
    struct kmutex *m = proc_pool_take(p, mutexes, KMAX_MUTEXES, owner_proc, KLIM_MUTEXES);
    if (!m)
        return -EAGAIN;
    m->owner = NULL;
    m->cond_refs = 0;
    list_init(&m->waiters);
    list_init(&m->held_link);
    return (int)(m - mutexes) + SYNC_ID_BASE;
}

static void mutex_take(struct kmutex *m, struct thread *t)
{
    m->owner = t;
    list_push_back(&t->held_mutexes, &m->held_link);
}

// A priority recomputed by this file: its caller runs exclusive, or holds the priority lock
// (shared side: thread.c prio_lock).
static inline void update_prio_held(struct thread *t)
{
    if (KSMP)
        thread_update_prio_locked(t);
    else
        thread_update_prio(t);
}

// Gives m to its best waiter (woken with `ret`), or frees it; then the old owner's
// priority no longer counts m's waiters.
static void mutex_release(struct kmutex *m, int32_t ret)
{
    struct thread *old = m->owner;

    list_unlink(&m->held_link);
    m->owner = NULL;
    if (!list_empty(&m->waiters)) {
        struct thread *next = list_entry(m->waiters.next, struct thread, qlink);
        mutex_take(m, next);
        next->wait_mutex = NULL;
        thread_unblock(next, ret ? ret : next->wake_ret);
        next->wake_ret = 0;
        update_prio_held(next);     // it inherits from the remaining waiters
    }
    if (old && old->in_use)
        update_prio_held(old);
}

// m's owners after w queued for m: exclusive, recomputed; shared (the caller holds m's lock,
// the priority lock and the run-queue lock), raised to w's priority.
static inline __attribute__((always_inline)) void owners_boost(struct kmutex *m,
                                                               const struct thread *w,
                                                               const bool shared)
{
    if (KSMP && shared) {
        thread_raise_prio_shared(m->owner, w->prio);
        return;
    }
    update_prio_held(m->owner);
}

// Blocks t on m (which someone else owns) and boosts the owner chain: exclusive, by
// recomputing it; shared (mutex_wait_shared holds the locks), by raising it to t's priority.
static inline __attribute__((always_inline)) void mutex_wait(struct kmutex *m, struct thread *t,
                                                             int id, const bool shared)
{
    t->wait_mutex = m;
    thread_block(t, THS_MUTEX, &m->waiters);
    ktrace_sync_wait(t, (uint32_t)id, m->owner);
    owners_boost(m, t, shared);
}

// The id user space names m by (the SYNC_* calls' first argument).
static int mutex_id(const struct kmutex *m)
{
    return (int)(m - mutexes) + SYNC_ID_BASE;
}

// The calls the shared side also takes (sync_call_shared, below) have one body each, run with
// `shared` a constant: false on the exclusive side, which needs no lock (it runs alone in the
// kernel); true in shared mode, under the object's lock, and the priority lock where a mutex's
// waiters change (what only the exclusive side may do is retried: KSHARED_RETRY, nothing changed).
// Timeouts are armed and cancelled on both sides (ktimer.c's own lock). "The shared side" below has the rules.
#define obj_lock(o, shared)   do { if (shared) kspin_lock(&(o)->lock, KLOCK_RANK_SYNC); } while (0)
#define obj_unlock(o, shared) do { if (shared) kspin_unlock(&(o)->lock, KLOCK_RANK_SYNC); } while (0)
// A thread blocked or made ready in shared mode: this CPU's run-queue lock, kept until its
// choice (sched_choose_shared; the queues are per CPU, sched.c).
#define runq_hold(shared)     do { if (shared) sched_lock_shared(); } while (0)
#define cond_lock(c, shared)  do { if (shared) kspin_lock(&(c)->lock, KLOCK_RANK_COND); } while (0)
#define cond_unlock(c, shared) do { if (shared) kspin_unlock(&(c)->lock, KLOCK_RANK_COND); } while (0)
#define prio_hold(shared)     do { if (shared) prio_lock(); } while (0)
#define prio_let_go(shared)   do { if (shared) prio_unlock(); } while (0)

// Shared side: t blocks on m, which another thread owns, and the chain of owners is raised to
// t's priority; under m's lock, then the priority lock, then the run-queue lock (kept to this
// CPU's choice: t blocks, and a READY owner moves to its new queue). KSHARED_RETRY, nothing
// changed, when an owner down the chain waits on a queue that is not a mutex's (its order is
// that queue's lock's: the exclusive side moves it).
static int mutex_wait_shared(struct kmutex *m, struct thread *t, int id)
{
    prio_lock();
    if (!thread_raise_prio_shared_ok(m->owner, t->prio)) {
        prio_unlock();
        return KSHARED_RETRY;
    }
    sched_lock_shared();
    mutex_wait(m, t, id, true);
    prio_unlock();
    return 0;
}

// Shared side: t hands m over to its first waiter, under m's lock, the priority lock (the
// waiters, the new owner's priority, t's own lowered) and the run-queue lock (the new owner made
// ready; held to this CPU's choice). mutex_release's recomputations reach no further than
// these two: the new owner is READY and t RUNNING, neither waits on a mutex.
static void mutex_hand_over_shared(struct kmutex *m)
{
    prio_lock();
    sched_lock_shared();
    mutex_release(m, 0);
    prio_unlock();
}

// Whether m has waiters, read under m's lock alone: a waiter comes (mutex_wait_shared) or goes
// (a hand-over) under it, and a waiter's move in the order under the priority lock never
// leaves the list empty on the way (thread.c waitq_move). (Exclusive: a waiter gone by a
// timeout or a kill.)
static inline bool mutex_has_waiters(const struct kmutex *m)
{
    if (!KSMP)
        return !list_empty(&m->waiters);
    return *(struct list *const volatile *)&m->waiters.next != &m->waiters;
}

static inline __attribute__((always_inline)) int mutex_lock_body(struct thread *t, int id,
                                                                 const bool shared)
{
    struct kmutex *m = mutex_lookup(t->proc, id);
    if (!m)
        return -EINVAL;
    int r = 0;
    obj_lock(m, shared);
    if (m->owner == t)
        r = -EDEADLK;
    else if (!m->owner)
        mutex_take(m, t);
    else if (shared)
        r = mutex_wait_shared(m, t, id);    // blocks and raises the owners (or retries)
    else
        mutex_wait(m, t, id, false);
    obj_unlock(m, shared);
    return r;
}

int mutex_lock(struct thread *t, int id)
{
    return mutex_lock_body(t, id, false);
}

// Shared mode: with no waiter, the owner's inherited priority did not count m, so releasing
// it changes no priority and takes no priority lock; with waiters, the hand-over takes it.
static inline __attribute__((always_inline)) int mutex_unlock_body(struct thread *t, int id,
                                                                   const bool shared)
{
    struct kmutex *m = mutex_lookup(t->proc, id);
    if (!m)
        return -EINVAL;
    int r = 0;
    obj_lock(m, shared);
    if (m->owner != t) {
        r = -EPERM;
    } else if (!shared) {
        mutex_release(m, 0);
    } else if (mutex_has_waiters(m)) {
        mutex_hand_over_shared(m);  // hands m over and lowers t's priority
    } else {
        list_unlink(&m->held_link);
        m->owner = NULL;
    }
    obj_unlock(m, shared);
    return r;
}

int mutex_unlock(struct thread *t, int id)
{
    return mutex_unlock_body(t, id, false);
}

int mutex_destroy(struct proc *p, int id)
{
    struct kmutex *m = mutex_lookup(p, id);
    if (!m)
        return -EINVAL;
    if (m->owner || !list_empty(&m->waiters) || m->cond_refs)
        return -EBUSY;
    m->in_use = false;
    return 0;
}

uint8_t sync_inherited_prio(const struct thread *t)
{
    uint8_t best = 0;
    const struct list *pos;
    list_for_each(pos, &t->held_mutexes) {
        const struct kmutex *m = list_entry(pos, struct kmutex, held_link);
        if (!list_empty(&m->waiters)) {
            uint8_t p = list_entry(m->waiters.next, struct thread, qlink)->prio;
            if (p > best)
                best = p;
        }
    }
    return best;
}

int cond_create(struct proc *p)
{
    struct kcond *c = proc_pool_take(p, conds, KMAX_CONDS, owner_proc, KLIM_CONDS);
    if (!c)
        return -EAGAIN;
    list_init(&c->waiters);
    return (int)(c - conds) + SYNC_ID_BASE;
}

// Shared mode: the condvar's lock, then its mutex's, then the priority lock (the mutex's
// waiters, if it is handed over, and t's own priority, which orders it among the condvar's
// waiters) and the run-queue lock (t blocks; a new owner is made ready).
static inline __attribute__((always_inline)) int cond_wait_body(struct thread *t, int cid,
                                                                int mid, const bool shared)
{
    struct kcond *c = cond_lookup(t->proc, cid);
    struct kmutex *m = mutex_lookup(t->proc, mid);
    if (!c || !m)
        return -EINVAL;
    int r = 0;
    cond_lock(c, shared);
    obj_lock(m, shared);
    if (m->owner != t) {
        r = -EPERM;
    } else {
        prio_hold(shared);
        runq_hold(shared);
        mutex_release(m, 0);
        t->wait_mutex = m;      // the mutex to take back when signalled
        m->cond_refs++;
        thread_block(t, THS_CONDVAR, &c->waiters);
        ktrace_sync_wait(t, (uint32_t)cid, NULL);
        prio_let_go(shared);
    }
    obj_unlock(m, shared);
    cond_unlock(c, shared);
    return r;
}

int cond_wait(struct thread *t, int cid, int mid)
{
    return cond_wait_body(t, cid, mid, false);
}

// A signalled condvar waiter: it must own its mutex again before it returns.
// `ret` is what CondWait returns once the mutex is back (0, or ETIMEDOUT after a timeout).
static inline __attribute__((always_inline)) void cond_wake(struct thread *w, int32_t ret,
                                                            const bool shared)
{
    struct kmutex *m = w->wait_mutex;

    ktimer_stop(&w->timeout);
    list_unlink(&w->qlink);
    w->waitq = NULL;
    m->cond_refs--;         // from here on it is an owner or a MUTEX waiter of m
    if (!m->owner) {
        w->wait_mutex = NULL;
        mutex_take(m, w);
        thread_unblock(w, ret);
        update_prio_held(w);
    } else {
        w->wake_ret = ret;
        thread_set_state(w, THS_MUTEX);
        waitq_insert(&m->waiters, w);
        ktrace_sync_wait(w, (uint32_t)mutex_id(m), m->owner);
        owners_boost(m, w, shared);
    }
}

int cond_signal(struct thread *t, int cid, bool all)
{
    struct kcond *c = cond_lookup(t->proc, cid);
    if (!c)
        return -EINVAL;
    while (!list_empty(&c->waiters)) {
        cond_wake(list_entry(c->waiters.next, struct thread, qlink), 0, false);
        if (!all)
            break;
    }
    return 0;
}

int cond_destroy(struct proc *p, int cid)
{
    struct kcond *c = cond_lookup(p, cid);
    if (!c)
        return -EINVAL;
    if (!list_empty(&c->waiters))
        return -EBUSY;
    c->in_use = false;
    return 0;
}

int sem_create(struct proc *p, int count)
{
    if (count < 0)
        return -EINVAL;
    struct ksem *s = proc_pool_take(p, sems, KMAX_SEMS, owner_proc, KLIM_SEMS);
    if (!s)
        return -EAGAIN;
    list_init(&s->waiters);
    s->count = count;
    s->taker = NULL;
    return (int)(s - sems) + SYNC_ID_BASE;
}

// A semaphore involves no priority: its waiters block and are made ready in shared mode too,
// with a timeout or without (ktimer.c's lock). SYNC_WAIT comes from ktrace_sync_wait (its one site, ktrace_sync.c).
static inline __attribute__((always_inline)) int sem_wait_body(struct thread *t, int id,
                                                               const bool shared)
{
    struct ksem *s = sem_lookup(t->proc, id);
    if (!s)
        return -EINVAL;
    obj_lock(s, shared);
    if (s->count > 0) {
        s->count--;
        s->taker = t;
    } else {
        thread_block(t, THS_SEM, &s->waiters);
        ktrace_sync_wait(t, (uint32_t)id, s->taker && s->taker->in_use ? s->taker : NULL);
        runq_hold(shared);      // t is still this CPU's until its choice
    }
    obj_unlock(s, shared);
    return 0;
}

int sem_wait(struct thread *t, int id)
{
    return sem_wait_body(t, id, false);
}

static inline __attribute__((always_inline)) int sem_post_body(struct thread *t, int id,
                                                               const bool shared)
{
    struct ksem *s = sem_lookup(t->proc, id);
    if (!s)
        return -EINVAL;
    int r = 0;
    obj_lock(s, shared);
    struct thread *w = list_empty(&s->waiters) ? NULL
                                                : list_entry(s->waiters.next, struct thread, qlink);
    if (w) {
        runq_hold(shared);
        thread_unblock(w, 0);
        s->taker = w;
    } else {
        if (s->taker == t)
            s->taker = NULL;
        if (s->count == INT32_MAX)
            r = -EAGAIN;
        else
            s->count++;
    }
    obj_unlock(s, shared);
    return r;
}

int sem_post(struct thread *t, int id)
{
    return sem_post_body(t, id, false);
}

int sem_destroy(struct proc *p, int id)
{
    struct ksem *s = sem_lookup(p, id);
    if (!s)
        return -EINVAL;
    if (!list_empty(&s->waiters))
        return -EBUSY;
    s->in_use = false;
    return 0;
}

void sync_cond_timeout(struct thread *t)
{
    cond_wake(t, -ETIMEDOUT, false);
}

void sync_waiter_gone(struct thread *t)
{
    // Already off the wait queue; a mutex owner may have been boosted by it. A condvar
    // waiter no longer refers to the mutex it would have taken back.
    struct kmutex *m = t->wait_mutex;
    t->wait_mutex = NULL;
    if (m && t->state == THS_CONDVAR)
        m->cond_refs--;
    if (m && m->owner && m->owner != t)
        update_prio_held(m->owner);
}

void sync_thread_gone(struct thread *t)
{
    while (!list_empty(&t->held_mutexes))
        mutex_release(list_entry(t->held_mutexes.next, struct kmutex, held_link), -ECANCELED);
}

void sync_proc_gone(struct proc *p)
{
    for (int i = 0; i < KMAX_MUTEXES; i++)
        if (mutexes[i].owner_proc == p)
            mutexes[i].in_use = false;
    for (int i = 0; i < KMAX_CONDS; i++)
        if (conds[i].owner_proc == p)
            conds[i].in_use = false;
    for (int i = 0; i < KMAX_SEMS; i++)
        if (sems[i].owner_proc == p)
            sems[i].in_use = false;
}

// The shared side (kernel/kentry_shared.h, kernel/klock.h). The exclusive side changes these
// objects with no lock (it runs alone in the kernel) and alone creates, destroys and looks up
// their existence, so a lookup here reads in_use and owner_proc unlocked. Under an object's
// lock (rank KLOCK_RANK_SYNC, one object at a time) a shared call changes only that object
// and the threads blocking on it; a thread it blocks or makes ready also takes the run-queue
// lock before the object's is let go, kept until this CPU's choice (sched_choose_shared), so
// that a thread blocked here is not made ready elsewhere before its CPU has switched away.
//
// Priority inheritance on the shared side: a contended MutexLock blocks its caller and raises
// the chain of owners (mutex_wait_shared), and a MutexUnlock with waiters hands the mutex over
// (mutex_hand_over_shared), each under the mutex's lock and then the priority lock (rank PRIO,
// which orders every mutex's waiters and every priority that two CPUs could change at once:
// thread.c prio_lock says who writes one and why the message path needs it only for a server
// holding a mutex) and the run-queue lock. The uncontended calls change only their caller's
// own list of held mutexes, which nobody else reads while it runs. Retried (KSHARED_RETRY,
// nothing changed): an owner down the chain waiting on a channel's or a semaphore's queue; a
// broadcast whose waiters wait for different mutexes. CondWait and a signal with waiters hold
// the condvar's lock (rank COND) and then its mutex's. A timeout's expiry and a kill stay
// exclusive (the tick's, thread_destroy's), so a waiter leaves a mutex's queue on the shared
// side only by a hand-over, and a condvar's only by a signal.

// A CondSignal or CondBroadcast: its waiters go to their mutex (cond_wake), under the
// condvar's lock, then the mutex's, the priority lock and the run-queue lock. KSHARED_RETRY,
// nothing changed, when a broadcast's waiters wait for different mutexes (one mutex's lock at
// a time here), or when the raise of the mutex's owners must go exclusive
// (thread_raise_prio_shared_ok: checked for the highest priority among those woken).
static int cond_signal_shared(struct thread *t, int cid, bool all)
{
    struct kcond *c = cond_lookup(t->proc, cid);
    if (!c)
        return -EINVAL;
    cond_lock(c, true);
    if (list_empty(&c->waiters)) {
        cond_unlock(c, true);
        return 0;
    }
    struct thread *first = list_entry(c->waiters.next, struct thread, qlink);
    struct kmutex *m = first->wait_mutex;
    uint8_t top = first->prio;
    const struct list *pos;
    list_for_each(pos, &c->waiters) {
        const struct thread *w = list_entry(pos, struct thread, qlink);
        if (!all)
            break;
        if (w->wait_mutex != m) {
            cond_unlock(c, true);
            return KSHARED_RETRY;
        }
        if (w->prio > top)
            top = w->prio;
    }
    obj_lock(m, true);
    prio_lock();
    if (m->owner && !thread_raise_prio_shared_ok(m->owner, top)) {
        prio_unlock();
        obj_unlock(m, true);
        cond_unlock(c, true);
        return KSHARED_RETRY;
    }
    sched_lock_shared();
    while (!list_empty(&c->waiters)) {
        cond_wake(list_entry(c->waiters.next, struct thread, qlink), 0, true);
        if (!all)
            break;
    }
    prio_unlock();
    obj_unlock(m, true);
    cond_unlock(c, true);
    return 0;
}

int sync_call_shared(struct thread *t, uint32_t n, int id, uint32_t arg1)
{
    switch (n) {
    case KC_MutexLock:   return mutex_lock_body(t, id, true);
    case KC_MutexUnlock: return mutex_unlock_body(t, id, true);
    case KC_CondWait:    return cond_wait_body(t, id, (int)arg1, true);
    case KC_CondSignal:  return cond_signal_shared(t, id, arg1 != 0);
    case KC_SemWait:     return sem_wait_body(t, id, true);
    case KC_SemPost:     return sem_post_body(t, id, true);
    default:             return KSHARED_RETRY;
    }
}
