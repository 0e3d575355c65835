// SPDX-License-Identifier: MIT
// Mutexes (errors, priority inheritance), condition variables, semaphores.
#include "ktest.h"

static int mtx, sem_locked;
static volatile int order_seq, h_order, hog_order;

// Fixed amounts of work, not of time: the test must not depend on how fast the host runs QEMU.
static void busy(unsigned n)
{
    for (volatile unsigned i = 0; i < n; i++)
        ;
}

static int low_holder(void *arg)
{
    (void)arg;
    MutexLock(mtx);
    SemPost(sem_locked);    // the creator (100) preempts us here, mutex held
    busy(20000);
    MutexUnlock(mtx);
    return 0;
}

static int high_waiter(void *arg)
{
    (void)arg;
    MutexLock(mtx);
    h_order = ++order_seq;
    MutexUnlock(mtx);
    return 0;
}

static int medium_hog(void *arg)
{
    (void)arg;
    busy(400000);
    hog_order = ++order_seq;
    return 0;
}

// Low (20) holds the mutex, high (90) waits for it, a medium (50) hog is ready: only if low
// inherits 90 does it finish its work, and high get the mutex, before the hog is done.
static void mutex_inheritance(void)
{
    mtx = MutexCreate();
    sem_locked = SemCreate(0);
    order_seq = h_order = hog_order = 0;
    int l = ThreadCreate(low_holder, NULL, stack_get(), TSTACK_SIZE, 20, 0);
    SemWait(sem_locked);
    int m = ThreadCreate(medium_hog, NULL, stack_get(), TSTACK_SIZE, 50, 0);
    int h = ThreadCreate(high_waiter, NULL, stack_get(), TSTACK_SIZE, 90, 0);
    ThreadJoin(h, NULL);
    ThreadJoin(m, NULL);
    ThreadJoin(l, NULL);
    CHECK(h_order == 1 && hog_order == 2,
          "priority inheritance: the holder outran a medium hog (order %d, %d)", h_order,
          hog_order);
    CHECK(MutexDestroy(mtx) == 0 && SemDestroy(sem_locked) == 0, "destroy mutex and semaphore");
}

static int other_locker(void *arg)
{
    return MutexLock((int)(intptr_t)arg) == 0 ? 0 : errno;
}

static void mutex_errors(void)
{
    int m = MutexCreate();
    CHECK(MutexLock(m) == 0, "MutexLock a free mutex");
    CHECK_ERR(MutexLock(m), EDEADLK);
    CHECK_ERR(MutexDestroy(m), EBUSY);
    CHECK(MutexUnlock(m) == 0, "MutexUnlock by the owner");
    CHECK_ERR(MutexUnlock(m), EPERM);
    // A thread that dies holding a mutex: the next owner is told with ECANCELED.
    int t = ThreadCreate(other_locker, (void *)(intptr_t)m, stack_get(), TSTACK_SIZE, 110, 0);
    int st = -1;
    ThreadJoin(t, &st);
    errno = 0;
    int r = MutexLock(m);
    CHECK(r == 0, "lock a mutex whose owner exited holding it (r %d errno %d)", r, errno);
    MutexUnlock(m);
    MutexDestroy(m);
}

static int cv_m, cv_c;
static volatile int items, consumed;

static int consumer(void *arg)
{
    (void)arg;
    MutexLock(cv_m);
    while (items == 0)
        CondWait(cv_c, cv_m);
    items--;
    consumed++;
    MutexUnlock(cv_m);
    return 0;
}

static void condvars(void)
{
    cv_m = MutexCreate();
    cv_c = CondCreate();
    items = consumed = 0;
    int a = ThreadCreate(consumer, NULL, stack_get(), TSTACK_SIZE, 110, 0);
    int b = ThreadCreate(consumer, NULL, stack_get(), TSTACK_SIZE, 110, 0);
    CHECK(consumed == 0, "consumers wait on the condition variable");
    MutexLock(cv_m);
    items = 2;
    CondBroadcast(cv_c);
    MutexUnlock(cv_m);      // consumers (110) run now
    CHECK(consumed == 2, "broadcast woke both waiters (%d)", consumed);
    ThreadJoin(a, NULL);
    ThreadJoin(b, NULL);
    CHECK_ERR(CondWait(cv_c, cv_m), EPERM);

    MutexLock(cv_m);
    TimerTimeout(5 * 1000000ull);
    errno = 0;
    int r = CondWait(cv_c, cv_m);
    int e = errno;
    CHECK(r == -1 && e == ETIMEDOUT, "CondWait times out with ETIMEDOUT (%d, errno %d)", r, e);
    CHECK(MutexUnlock(cv_m) == 0, "after a timed-out CondWait the caller owns the mutex again");
    CondDestroy(cv_c);
    MutexDestroy(cv_m);
}

static int poster(void *arg)
{
    for (int i = 0; i < 3; i++)
        SemPost((int)(intptr_t)arg);
    return 0;
}

static void semaphores(void)
{
    int s = SemCreate(0);
    int t = ThreadCreate(poster, (void *)(intptr_t)s, stack_get(), TSTACK_SIZE, 10, 0);
    int ok = 0;
    for (int i = 0; i < 3; i++)
        ok += SemWait(s) == 0;
    CHECK(ok == 3, "three waits satisfied by three posts");
    ThreadJoin(t, NULL);
    TimerTimeout(3 * 1000000ull);
    CHECK_ERR(SemWait(s), ETIMEDOUT);
    CHECK_ERR(SemCreate(-1), EINVAL);
    SemDestroy(s);
}

void test_sync(void)
{
    printf("# synchronisation\n");
    mutex_inheritance();
    mutex_errors();
    condvars();
    semaphores();
}
