// SPDX-License-Identifier: MIT
// Mutex priority inheritance along a chain, hand-off order, timeouts of blocking calls
// (semaphore, receive, condvar), sleep wake-ups, and the timer list order.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "kstub.h"
#include <kernel/sync.h>
#include <kernel/ipc.h>
#include <kernel/sched.h>
#include <kernel/ktimer.h>

static uint8_t ram[4096] __attribute__((aligned(4096)));
static struct proc *p;

static int setup(void **state)
{
    (void)state;
    kstub_reset();
    kstub_thread(NULL, 0);
    p = kstub_proc(1, ram, sizeof(ram), 0);
    return 0;
}

static void tick_to(uint64_t t)
{
    while (k_ticks < t) {
        k_ticks++;
        ktimer_run(k_ticks);
    }
}

static void test_inheritance_chain(void **state)
{
    (void)state;
    struct thread *low = kstub_thread(p, 10), *mid = kstub_thread(p, 20),
                  *high = kstub_thread(p, 90);
    int m1 = mutex_create(p), m2 = mutex_create(p);
    kstub_run(low);
    assert_int_equal(mutex_lock(low, m1), 0);
    kstub_run(mid);
    assert_int_equal(mutex_lock(mid, m2), 0);
    assert_int_equal(mutex_lock(mid, m1), 0);       // blocks on low
    assert_int_equal(mid->state, THS_MUTEX);
    assert_int_equal(low->prio, 20);
    kstub_run(high);
    assert_int_equal(mutex_lock(high, m2), 0);      // blocks on mid, which waits on low
    assert_int_equal(mid->prio, 90);
    assert_int_equal(low->prio, 90);                // through the chain
    // low releases m1: mid owns it (hand-off), low drops back to 10.
    kstub_run(low);
    assert_int_equal(mutex_unlock(low, m1), 0);
    assert_int_equal(low->prio, 10);
    assert_int_equal(mid->state, THS_READY);
    assert_int_equal(mid->prio, 90);                // still has high waiting on m2
    kstub_run(mid);
    assert_int_equal(mutex_unlock(mid, m2), 0);
    assert_int_equal(mid->prio, 20);
    assert_int_equal(high->state, THS_READY);
    assert_int_equal(mutex_unlock(mid, m2), -EPERM);
}

static void test_waiter_timeout_drops_boost(void **state)
{
    (void)state;
    struct thread *low = kstub_thread(p, 10), *high = kstub_thread(p, 80);
    int m = mutex_create(p);
    kstub_run(low);
    mutex_lock(low, m);
    kstub_run(high);
    high->timeout_ns = 3000000;     // TimerTimeout(3 ms)
    mutex_lock(high, m);
    assert_int_equal(low->prio, 80);
    tick_to(k_ticks + 5);
    assert_int_equal(high->state, THS_READY);
    assert_int_equal(kstub_result(high), -ETIMEDOUT);
    assert_int_equal(low->prio, 10);
}

static void test_handoff_in_priority_order(void **state)
{
    (void)state;
    struct thread *o = kstub_thread(p, 50), *a = kstub_thread(p, 30), *b = kstub_thread(p, 40);
    int m = mutex_create(p);
    kstub_run(o);
    mutex_lock(o, m);
    kstub_run(a);
    mutex_lock(a, m);
    kstub_run(b);
    mutex_lock(b, m);
    kstub_run(o);
    mutex_unlock(o, m);
    assert_int_equal(b->state, THS_READY);      // higher waiter first
    assert_int_equal(a->state, THS_MUTEX);
}

static void test_owner_death_releases(void **state)
{
    (void)state;
    struct thread *o = kstub_thread(p, 50), *w = kstub_thread(p, 30);
    int m = mutex_create(p);
    kstub_run(o);
    mutex_lock(o, m);
    kstub_run(w);
    mutex_lock(w, m);
    thread_destroy(o, 0);
    assert_int_equal(w->state, THS_READY);
    assert_int_equal(kstub_result(w), -ECANCELED);
}

static void test_semaphore_timeout_and_sleep(void **state)
{
    (void)state;
    struct thread *t = kstub_thread(p, 30), *s = kstub_thread(p, 20);
    int sem = sem_create(p, 0);
    kstub_run(t);
    t->timeout_ns = 2000000;
    sem_wait(t, sem);
    assert_int_equal(t->state, THS_SEM);
    kstub_run(s);
    s->timeout_ns = 0;
    ktimer_start(&s->timeout, k_ticks + 10);
    thread_block(s, THS_NANOSLEEP, NULL);
    tick_to(k_ticks + 2);
    assert_int_equal(t->state, THS_SEM);        // 2 ms + partial tick: not yet
    tick_to(k_ticks + 1);
    assert_int_equal(t->state, THS_READY);
    assert_int_equal(kstub_result(t), -ETIMEDOUT);
    assert_int_equal(s->state, THS_NANOSLEEP);
    tick_to(k_ticks + 10);
    assert_int_equal(s->state, THS_READY);
    assert_int_equal(kstub_result(s), 0);
    // A post with no waiter counts; a wait then does not block.
    kstub_run(t);
    sem_post(t, sem);
    assert_int_equal(sem_wait(t, sem), 0);
    assert_int_equal(t->state, THS_RUNNING);
}

static void test_receive_timeout(void **state)
{
    (void)state;
    struct thread *t = kstub_thread(p, 30);
    int chid = ipc_channel_create(p, 0);
    kstub_run(t);
    t->timeout_ns = 1;
    ipc_receive(t, chid, kstub_addr(ram), 64, 0);
    assert_int_equal(t->state, THS_RECEIVE);
    tick_to(k_ticks + 2);
    assert_int_equal(kstub_result(t), -ETIMEDOUT);
    assert_true(list_empty(&k_channels[chid - 1].recv_q));
}

static void test_condvar_timeout_retakes_mutex(void **state)
{
    (void)state;
    struct thread *t = kstub_thread(p, 30), *o = kstub_thread(p, 20);
    int m = mutex_create(p), c = cond_create(p);
    kstub_run(t);
    mutex_lock(t, m);
    t->timeout_ns = 1000000;
    cond_wait(t, c, m);
    kstub_run(o);
    mutex_lock(o, m);           // o takes the mutex while t waits
    tick_to(k_ticks + 3);
    assert_int_equal(t->state, THS_MUTEX);      // timed out, now queued for the mutex
    mutex_unlock(o, m);
    assert_int_equal(t->state, THS_READY);
    assert_int_equal(kstub_result(t), -ETIMEDOUT);
    kstub_run(t);
    assert_int_equal(mutex_unlock(t, m), 0);    // t owned it again
}

static int fired[4], nfired;
static void record(struct ktimer *t) { fired[nfired++] = (int)t->expires; }

static void test_timer_order(void **state)
{
    (void)state;
    struct ktimer a, b, c;
    ktimer_init(&a, record);
    ktimer_init(&b, record);
    ktimer_init(&c, record);
    nfired = 0;
    ktimer_start(&a, 30);
    ktimer_start(&b, 10);
    ktimer_start(&c, 20);
    ktimer_stop(&c);
    ktimer_run(25);
    assert_int_equal(nfired, 1);
    assert_int_equal(fired[0], 10);
    ktimer_run(30);
    assert_int_equal(nfired, 2);
    assert_int_equal(fired[1], 30);
    assert_int_equal(ktimer_ns_to_ticks(1), 2);
    assert_int_equal(ktimer_ns_to_ticks(1000000), 2);
    assert_int_equal(ktimer_ns_to_ticks(1000001), 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_inheritance_chain, setup),
        cmocka_unit_test_setup(test_waiter_timeout_drops_boost, setup),
        cmocka_unit_test_setup(test_handoff_in_priority_order, setup),
        cmocka_unit_test_setup(test_owner_death_releases, setup),
        cmocka_unit_test_setup(test_semaphore_timeout_and_sleep, setup),
        cmocka_unit_test_setup(test_receive_timeout, setup),
        cmocka_unit_test_setup(test_condvar_timeout_retakes_mutex, setup),
        cmocka_unit_test_setup(test_timer_order, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
