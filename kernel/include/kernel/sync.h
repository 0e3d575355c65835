// SPDX-License-Identifier: MIT
// Mutexes (owner hand-off, priority inheritance), condition variables and counting semaphores.
// Objects are kernel objects named by small integer ids and owned by one process.
#ifndef KERNEL_SYNC_H
#define KERNEL_SYNC_H

#include <kernel/thread.h>
#include <kernel/klock.h>
#include <uapi/kcall.h>

struct kmutex {
    bool in_use;
    struct proc *owner_proc;
    struct thread *owner;       // NULL when free
    struct list waiters;        // MUTEX-blocked threads, by priority
    struct list held_link;      // in owner->held_mutexes
    uint16_t cond_refs;         // CONDVAR-blocked threads that will take it back: while any
                                // refers to it the mutex cannot be destroyed (EBUSY)
    struct kspin lock;          // owner, held_link, waiters in shared mode (KLOCK_RANK_SYNC)
} KCPU_LINE_ALIGNED;            // (two CPUs' mutexes share no line: kernel/cpu.h)

void sync_init(void);
int mutex_create(struct proc *p);
int mutex_lock(struct thread *t, int id);
int mutex_unlock(struct thread *t, int id);
int mutex_destroy(struct proc *p, int id);
int cond_create(struct proc *p);
int cond_wait(struct thread *t, int cid, int mid);
int cond_signal(struct thread *t, int cid, bool all);
int cond_destroy(struct proc *p, int cid);
int sem_create(struct proc *p, int count);
int sem_wait(struct thread *t, int id);
int sem_post(struct thread *t, int id);
int sem_destroy(struct proc *p, int id);
// Highest priority among the threads waiting for mutexes `t` holds (0 if none).
uint8_t sync_inherited_prio(const struct thread *t);
// A dying thread gives up its mutexes (waiters get EOWNERDEAD-like ECANCELED... see sync.c).
void sync_thread_gone(struct thread *t);
void sync_proc_gone(struct proc *p);
// A MUTEX/CONDVAR/SEM-blocked thread is being unblocked by a timeout or kill.
void sync_waiter_gone(struct thread *t);
// A CONDVAR-blocked thread's timeout: it takes its mutex back, then returns ETIMEDOUT.
void sync_cond_timeout(struct thread *t);

// Several CPUs: the SYNC_* calls the big-reader lock's shared side takes (kernel/kentry_shared.h): the
// numbers are consecutive in uapi/kcall.h, MutexLock to SemWait.
static inline bool sync_shared_call(uint32_t n)
{
    return n - (uint32_t)KC_MutexLock <= (uint32_t)(KC_SemWait - KC_MutexLock);
}

// One of those calls in shared mode (its first two arguments), untraced or traced (the trace needs no kernel lock; D
// running sends every entry exclusive): its result, or KSHARED_RETRY having changed nothing.
int sync_call_shared(struct thread *t, uint32_t n, int id, uint32_t arg1);

#endif
