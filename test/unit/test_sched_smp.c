// SPDX-License-Identifier: MIT
// The scheduler on several CPUs (kernel/sched.c, built with KMAX_CPUS=4 over host stand-ins).
// 1. The tick's round-robin slices: which other CPU the tick interrupts (arch_cpu_kick) when
//    its thread's slice runs out. The truth is the round-robin rule (a thread whose slice
//    ended yields to a ready thread of its own priority, to nothing else): a CPU is
//    interrupted exactly when a ready thread it may run would take its place; and a yield left
//    pending still happens at that CPU's next choice.
// 2. The per-CPU run queues under random wake-ups, blocks, affinities and priority changes
//    on 4 simulated CPUs, entries interleaved (a CPU may stay in the kernel, its thread
//    blocked, while the others wake that thread and choose): checked against an oracle
//    written from the rules alone, looking only at thread states and each CPU's current
//    (test_sched_smp_rt.c).
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include <kernel/sched.h>
#include <kernel/thread.h>
#include <kernel/arch.h>
#include <kernel/ktrace.h>
#include <kernel/kdtrace.h>

// ---- host stand-ins for what sched.c calls (tracing and D off) ----
struct cpu *test_this_cpu;
int test_in_shared;
bool kdt_active;
uint8_t ktrace_cls_on[KEV_NCLASS];
struct ktrace_hot ktrace_hot;
struct trace_ring ktrace;
static unsigned kicks[KMAX_CPUS];
void arch_cpu_kick(unsigned cpu) { kicks[cpu]++; }
void kdt_fire(uint32_t id, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3)
{
    (void)id; (void)a0; (void)a1; (void)a2; (void)a3;
}
void ktrace_state_ev(const struct thread *t) { (void)t; }
void trace_emit_simple_slow_ce(struct trace_ring *r, uint32_t cls_ev, uint32_t a, uint32_t b)
{
    (void)r; (void)cls_ev; (void)a; (void)b;
}
void thread_set_result(struct thread *t, int32_t v) { (void)t; (void)v; }
void kpanic(const char *fmt, ...)
{
    fail_msg("kpanic: %s", fmt);
    for (;;)
        ;
}

static struct thread threads[4];
// test_sched_smp_rt.c
void test_rt_random_exclusive(void **state);
void test_rt_random_interleaved(void **state);
void test_rt_blocked_thread_not_run_twice(void **state);
void test_rt_requeue_of_taken_thread(void **state);

static void on_cpu(unsigned cpu)
{
    test_this_cpu = &k_cpus[cpu];
}

// A round-robin thread at prio, READY (affinity: 0 = any CPU).
static struct thread *rr_thread(unsigned i, int prio, uint32_t affinity)
{
    struct thread *t = &threads[i];
    memset(t, 0, sizeof *t);
    list_init(&t->qlink);
    t->prio = t->base_prio = (uint8_t)prio;
    t->policy = SCHED_POLICY_RR;
    t->slice = RR_TIMESLICE;
    t->affinity = affinity;
    sched_make_ready(t, false);
    return t;
}

static int setup(void **state)
{
    (void)state;
    on_cpu(0);
    sched_init();
    k_ncpus = 2;
    k_cpus[1].online = true;
    memset(kicks, 0, sizeof kicks);
    // Each CPU's idle thread: priority 0, pinned.
    for (unsigned c = 0; c < 2; c++) {
        struct thread *idle = &threads[c];
        memset(idle, 0, sizeof *idle);
        list_init(&idle->qlink);
        idle->affinity = 1u << c;
        sched_make_ready(idle, false);
        k_cpus[c].idle = idle;
    }
    return 0;
}

// CPU 1 takes the most urgent ready thread it may run; CPU 0 stays idle, taking the ticks.
static struct thread *run_on_cpu1(void)
{
    on_cpu(1);
    struct thread *t = sched_choose();
    on_cpu(0);
    k_cpus[0].current = k_cpus[0].idle;     // (idle runs at priority 0: no slice)
    sched_remove(k_cpus[0].idle);
    k_cpus[0].idle->state = THS_RUNNING;
    return t;
}

static void ticks(unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        sched_tick(1);
}

// A lone busy thread: its slice ends every RR_TIMESLICE ticks, but nothing would replace it,
// so its CPU is never interrupted for it (each such IPI was a kernel entry for nothing).
static void test_lone_thread_not_interrupted(void **state)
{
    (void)state;
    struct thread *a = rr_thread(2, 20, 0);
    assert_ptr_equal(run_on_cpu1(), a);
    ticks(10 * RR_TIMESLICE);
    assert_int_equal(kicks[1], 0);
    // A late tick covering several slices at once: the same.
    sched_tick(3 * RR_TIMESLICE);
    assert_int_equal(kicks[1], 0);
    // A ready thread less urgent than it changes nothing either.
    rr_thread(3, 10, 0);
    ticks(2 * RR_TIMESLICE);
    assert_int_equal(kicks[1], 0);
    on_cpu(1);
    assert_ptr_equal(sched_choose(), a);
}

// An equal thread ready: the CPU is interrupted when the slice ends, and its choice then
// goes to the other thread (round robin across CPUs still works).
static void test_equal_thread_ready_interrupts(void **state)
{
    (void)state;
    struct thread *a = rr_thread(2, 20, 0);
    assert_ptr_equal(run_on_cpu1(), a);
    struct thread *b = rr_thread(3, 20, 1u << 1);   // may run on CPU 1 only
    ticks(RR_TIMESLICE - 1);
    assert_int_equal(kicks[1], 0);
    sched_tick(1);
    assert_int_equal(kicks[1], 1);
    on_cpu(1);
    k_cpus[1].kicked = false;                       // (its entry clears it: main.c)
    assert_ptr_equal(sched_choose(), b);
}

// An equal thread that may not run on that CPU is no reason to interrupt it.
static void test_equal_thread_elsewhere_not_interrupted(void **state)
{
    (void)state;
    struct thread *a = rr_thread(2, 20, 0);
    assert_ptr_equal(run_on_cpu1(), a);
    rr_thread(3, 20, 1u << 0);                      // CPU 0 only
    ticks(2 * RR_TIMESLICE);
    assert_int_equal(kicks[1], 0);
}

// The slice ended with nobody to yield to; an equal thread readied after that is taken at the
// CPU's next choice (its own tick, a kernel call), not a whole slice later.
static void test_pending_yield_kept_for_next_choice(void **state)
{
    (void)state;
    struct thread *a = rr_thread(2, 20, 0);
    assert_ptr_equal(run_on_cpu1(), a);
    ticks(RR_TIMESLICE);
    assert_int_equal(kicks[1], 0);
    struct thread *b = rr_thread(3, 20, 0);
    on_cpu(1);
    assert_ptr_equal(sched_choose(), b);
    assert_int_equal(a->state, THS_READY);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_lone_thread_not_interrupted, setup),
        cmocka_unit_test_setup(test_equal_thread_ready_interrupts, setup),
        cmocka_unit_test_setup(test_equal_thread_elsewhere_not_interrupted, setup),
        cmocka_unit_test_setup(test_pending_yield_kept_for_next_choice, setup),
        cmocka_unit_test(test_rt_blocked_thread_not_run_twice),
        cmocka_unit_test(test_rt_requeue_of_taken_thread),
        cmocka_unit_test(test_rt_random_exclusive),
        cmocka_unit_test(test_rt_random_interleaved),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
