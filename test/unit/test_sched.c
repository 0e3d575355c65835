// SPDX-License-Identifier: MIT
// Ready queues and priorities: highest priority first, FIFO among equals, a preempted thread
// keeps the head of its queue, a yielding one goes to the back, round-robin time slices.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "kstub.h"
#include <kernel/sched.h>

static int setup(void **state)
{
    (void)state;
    kstub_reset();
    return 0;
}

static void test_highest_priority_first(void **state)
{
    (void)state;
    struct thread *idle = kstub_thread(NULL, 0);
    struct thread *a = kstub_thread(NULL, 10);
    struct thread *b = kstub_thread(NULL, 200);
    struct thread *c = kstub_thread(NULL, 33);
    assert_int_equal(sched_top_prio(), 200);
    assert_ptr_equal(sched_choose(), b);
    b->state = THS_NANOSLEEP;           // blocks
    assert_ptr_equal(sched_choose(), c);
    c->state = THS_SEM;
    assert_ptr_equal(sched_choose(), a);
    a->state = THS_SEM;
    assert_ptr_equal(sched_choose(), idle);
    assert_int_equal(sched_top_prio(), -1);
}

static void test_all_256_levels(void **state)
{
    (void)state;
    for (int p = 0; p < KMAX_THREADS && p < 256; p++)
        kstub_thread(NULL, (p * 5 + 3) % 256);
    int last = 256;
    for (int i = 0; i < KMAX_THREADS; i++) {
        struct thread *t = sched_choose();
        assert_true(t->prio <= last);
        last = t->prio;
        t->state = THS_SEM;
    }
}

static void test_fifo_among_equals_and_preemption(void **state)
{
    (void)state;
    struct thread *a = kstub_thread(NULL, 50);
    struct thread *b = kstub_thread(NULL, 50);
    assert_ptr_equal(sched_choose(), a);
    // A higher-priority thread preempts a; a goes back to the head, ahead of b.
    struct thread *h = kstub_thread(NULL, 60);
    assert_ptr_equal(sched_choose(), h);
    assert_int_equal(a->state, THS_READY);
    h->state = THS_SEM;
    assert_ptr_equal(sched_choose(), a);
    // Equal priority never preempts; a yield goes to the back.
    assert_ptr_equal(sched_choose(), a);
    sched_yield_current();
    assert_ptr_equal(sched_choose(), b);
    sched_yield_current();
    assert_ptr_equal(sched_choose(), a);
}

static void test_round_robin_slice(void **state)
{
    (void)state;
    struct thread *a = kstub_thread(NULL, 20);
    struct thread *b = kstub_thread(NULL, 20);
    a->policy = b->policy = SCHED_POLICY_RR;
    assert_ptr_equal(sched_choose(), a);
    for (unsigned i = 0; i < RR_TIMESLICE - 1; i++) {
        sched_tick(1);
        assert_ptr_equal(sched_choose(), a);
    }
    sched_tick(1);
    assert_ptr_equal(sched_choose(), b);
    // A late tick covering more periods than the slice has left (arch_tick_periods) ends it,
    // as that many ticks one by one would: the slice is time, not tick interrupts.
    sched_tick(RR_TIMESLICE + 3);
    assert_ptr_equal(sched_choose(), a);
}

static void test_fifo_policy_keeps_cpu(void **state)
{
    (void)state;
    struct thread *a = kstub_thread(NULL, 20);
    kstub_thread(NULL, 20);
    a->policy = SCHED_POLICY_FIFO;
    assert_ptr_equal(sched_choose(), a);
    for (unsigned i = 0; i < 10 * RR_TIMESLICE; i++) {
        sched_tick(1);
        assert_ptr_equal(sched_choose(), a);
    }
}

static void test_context_switch_count(void **state)
{
    (void)state;
    struct thread *a = kstub_thread(NULL, 20);
    struct thread *b = kstub_thread(NULL, 30);
    uint64_t before = k_cpus[0].context_switches;
    assert_ptr_equal(sched_choose(), b);
    assert_ptr_equal(sched_choose(), b);
    b->state = THS_SEM;
    assert_ptr_equal(sched_choose(), a);
    assert_int_equal(k_cpus[0].context_switches - before, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_highest_priority_first, setup),
        cmocka_unit_test_setup(test_all_256_levels, setup),
        cmocka_unit_test_setup(test_fifo_among_equals_and_preemption, setup),
        cmocka_unit_test_setup(test_round_robin_slice, setup),
        cmocka_unit_test_setup(test_fifo_policy_keeps_cpu, setup),
        cmocka_unit_test_setup(test_context_switch_count, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
