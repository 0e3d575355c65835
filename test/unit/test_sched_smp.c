// SPDX-License-Identifier: MIT
// The scheduler on several CPUs (kernel/sched.c, built with KMAX_CPUS=4 over host stand-ins).
// 1. The round-robin slices: each CPU charges its own running thread at its own timer
//    interrupt (the kernel's tick or its share of it, exclusive or shared) and chooses. The
//    truth is the round-robin rule (a thread whose slice ended yields to a ready thread of its
//    own priority that may run there, to nothing else), and the CPU that takes the kernel's
//    tick touches no other CPU's thread and interrupts none.
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
void ktrace_surrender_ev(const struct thread *cur, unsigned cpu)
{
    (void)cur; (void)cpu;
}
// The STEAL events sched.c records: how many, the last one's thread and source CPU.
static struct { unsigned n; const struct thread *t; unsigned from; } steals;
void ktrace_steal_ev(const struct thread *t, unsigned from)
{
    steals.n++, steals.t = t, steals.from = from;
}
int test_spins_held;
// The state events sched.c records (TRACE ORDER): whose, in what state, with how many
// spinlocks held at that moment.
static struct { const struct thread *t; uint8_t state; int spins; } events[8];
static unsigned nevents;
static void record(const struct thread *t)
{
    if (nevents < sizeof events / sizeof events[0])
        events[nevents].t = t, events[nevents].state = t->state,
        events[nevents].spins = test_spins_held;
    nevents++;
}
void ktrace_state_ev(const struct thread *t) { record(t); }
void ktrace_state_call(struct thread *t) { record(t); }
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

// CPU cpu's own timer interrupt, n times, each followed by its entry's choice (main.c,
// KENTRY_TICK or KENTRY_CPUTICK: the exclusive side); the last choice.
static struct thread *cpu_ticks(unsigned cpu, unsigned n, unsigned periods)
{
    struct thread *t = NULL;
    on_cpu(cpu);
    for (unsigned i = 0; i < n; i++) {
        sched_tick(periods);
        t = sched_choose();
    }
    on_cpu(0);
    return t;
}

static unsigned all_kicks(void)
{
    unsigned k = 0;
    for (unsigned c = 0; c < KMAX_CPUS; c++)
        k += kicks[c];
    return k;
}

// The CPU that takes the kernel's tick charges its own thread alone (docs/smp.md, "The
// tick"): CPU 0's ticks leave CPU 1's thread's slice and flags as they were, and
// interrupt nobody.
static void test_tick_touches_own_cpu_only(void **state)
{
    (void)state;
    struct thread *a = rr_thread(2, 20, 0);
    assert_ptr_equal(run_on_cpu1(), a);
    rr_thread(3, 20, 1u << 1);                      // an equal one waiting on CPU 1
    cpu_ticks(0, 10 * RR_TIMESLICE, 1);
    assert_int_equal(a->slice, RR_TIMESLICE);
    assert_false(k_cpus[1].yield_pending);
    assert_int_equal(all_kicks(), 0);
}

// A lone busy thread: its slice ends every RR_TIMESLICE of its CPU's ticks, nothing replaces
// it, and no CPU is ever interrupted for it.
static void test_lone_thread_not_interrupted(void **state)
{
    (void)state;
    struct thread *a = rr_thread(2, 20, 0);
    assert_ptr_equal(run_on_cpu1(), a);
    assert_ptr_equal(cpu_ticks(1, 10 * RR_TIMESLICE, 1), a);
    // A late interrupt covering several slices at once: the same.
    assert_ptr_equal(cpu_ticks(1, 1, 3 * RR_TIMESLICE), a);
    // A ready thread less urgent than it changes nothing either.
    rr_thread(3, 10, 0);
    assert_ptr_equal(cpu_ticks(1, 2 * RR_TIMESLICE, 1), a);
    assert_int_equal(all_kicks(), 0);
}

// An equal thread ready: the slice's end on the CPU's own tick hands the CPU over (round
// robin across CPUs still works), with no IPI: the CPU's own interrupt did it.
static void test_equal_thread_ready_takes_over(void **state)
{
    (void)state;
    struct thread *a = rr_thread(2, 20, 0);
    assert_ptr_equal(run_on_cpu1(), a);
    struct thread *b = rr_thread(3, 20, 1u << 1);   // may run on CPU 1 only
    assert_ptr_equal(cpu_ticks(1, RR_TIMESLICE - 1, 1), a);
    assert_ptr_equal(cpu_ticks(1, 1, 1), b);
    assert_int_equal(a->state, THS_READY);
    assert_int_equal(b->slice, RR_TIMESLICE);       // b's own slice starts whole
    assert_int_equal(all_kicks(), 0);
    // and back after b's slice
    assert_ptr_equal(cpu_ticks(1, RR_TIMESLICE, 1), a);
}

// An equal thread that may not run on that CPU does not take its place.
static void test_equal_thread_elsewhere_stays(void **state)
{
    (void)state;
    struct thread *a = rr_thread(2, 20, 0);
    assert_ptr_equal(run_on_cpu1(), a);
    rr_thread(3, 20, 1u << 0);                      // CPU 0 only
    assert_ptr_equal(cpu_ticks(1, 2 * RR_TIMESLICE, 1), a);
    assert_int_equal(all_kicks(), 0);
}

// An equal thread waiting on another CPU's queue that may run here is pulled at the slice's
// end (the choice's pull honours the pending yield).
static void test_equal_thread_pulled_at_slice_end(void **state)
{
    (void)state;
    struct thread *a = rr_thread(2, 20, 0);
    assert_ptr_equal(run_on_cpu1(), a);
    k_cpus[0].current = NULL;                       // CPU 0 in the kernel, about to choose
    struct thread *b = rr_thread(3, 20, 0);         // queued on CPU 0's queue
    k_cpus[0].current = k_cpus[0].idle;
    assert_int_equal(b->rq_cpu, 0);
    assert_ptr_equal(cpu_ticks(1, RR_TIMESLICE, 1), b);
    assert_int_equal(a->state, THS_READY);
}

// A traced choice that takes a thread from another CPU's queue (docs/d-probes.md, dequeue):
// the thread's rq_cpu, which the RUNNING event's dequeue reads, names the queue it left, not
// the choosing CPU's, and one STEAL event says so; a choice from the CPU's own queue records
// none and leaves rq_cpu that CPU's. The truth: the queue the test put the thread on.
static void test_steal_names_source_queue(void **state)
{
    (void)state;
    ktrace_cls_on[KEV_C_SYSTEM] = 1;
    memset(&steals, 0, sizeof steals);
    k_cpus[0].current = NULL;                       // CPU 0 in the kernel, about to choose
    struct thread *b = rr_thread(2, 20, 0);         // queued on CPU 0's queue
    k_cpus[0].current = k_cpus[0].idle;
    sched_remove(k_cpus[0].idle);
    k_cpus[0].idle->state = THS_RUNNING;
    assert_int_equal(b->rq_cpu, 0);
    on_cpu(1);
    assert_ptr_equal(sched_choose_traced(), b);     // CPU 1, idle, pulls it
    assert_int_equal(b->cpu, 1);
    assert_int_equal(b->rq_cpu, 0);
    assert_int_equal(steals.n, 1);
    assert_ptr_equal(steals.t, b);
    assert_int_equal(steals.from, 0);
    struct thread *c = rr_thread(3, 30, 1u << 1);   // CPU 1's own, more urgent
    assert_int_equal(c->rq_cpu, 1);
    assert_ptr_equal(sched_choose_traced(), c);
    assert_int_equal(c->rq_cpu, 1);
    assert_int_equal(steals.n, 1);
    on_cpu(0);
    ktrace_cls_on[KEV_C_SYSTEM] = 0;
}

// The shared side's form (sched_tick_shared, then the shared choice): the same decision,
// under CPU 1's queue lock, which the choice lets go.
static void test_shared_tick(void **state)
{
    (void)state;
    struct thread *a = rr_thread(2, 20, 0);
    assert_ptr_equal(run_on_cpu1(), a);
    struct thread *b = rr_thread(3, 20, 1u << 1);
    on_cpu(1);
    test_in_shared = 1;
    for (unsigned i = 0; i < RR_TIMESLICE - 1; i++) {
        sched_tick_shared(1);
        assert_true(k_cpus[1].rq_held);
        assert_ptr_equal(sched_choose_shared(), a);
        assert_false(k_cpus[1].rq_held);
    }
    sched_tick_shared(1);
    assert_ptr_equal(sched_choose_shared(), b);
    assert_false(k_cpus[1].rq_held);
    test_in_shared = 0;
    on_cpu(0);
}

// TRACE ORDER (sched.c): a shared entry that makes a thread ready on another CPU's queue
// records its READY event before it lets that queue's lock go, since the other CPU may take
// the thread the moment it does (the event after it let a capture run the thread before it
// was ready: the parity test's one-off failure). Both ways in, the general call and the
// message copies' traced one: one event, READY, with the other queue's lock held. A thread
// bound to this CPU: the event follows the enqueue, this CPU's queue lock kept until its
// choice.
static void test_ready_recorded_under_other_queue_lock(void **state)
{
    (void)state;
    ktrace_cls_on[KEV_C_PR_TH] = 1;
    static struct thread t;
    for (unsigned way = 0; way < 3; way++) {
        const unsigned to = way == 2 ? 0 : 1;
        memset(&t, 0, sizeof t);
        list_init(&t.qlink);
        t.prio = t.base_prio = 30;
        t.affinity = 1u << to;
        t.state = THS_RECEIVE;
        on_cpu(0);
        test_in_shared = 1;
        nevents = 0;
        if (way == 1)
            sched_make_ready_traced(&t, false);
        else
            sched_make_ready(&t, false);
        assert_int_equal(nevents, 1);
        assert_ptr_equal(events[0].t, &t);
        assert_int_equal(events[0].state, THS_READY);
        assert_true(events[0].spins > 0);
        assert_int_equal(t.rq_cpu, to);
        assert_int_equal(test_spins_held, to == 0 ? 1 : 0);   // (own: kept until the choice)
        if (to == 0) {
            assert_ptr_equal(sched_choose_shared(), &t);
        } else {
            test_in_shared = 0;
            on_cpu(1);
            assert_ptr_equal(sched_choose(), &t);
        }
        assert_int_equal(test_spins_held, 0);
        test_in_shared = 0;
        k_cpus[0].current = k_cpus[1].current = NULL;
        on_cpu(0);
    }
    ktrace_cls_on[KEV_C_PR_TH] = 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_tick_touches_own_cpu_only, setup),
        cmocka_unit_test_setup(test_lone_thread_not_interrupted, setup),
        cmocka_unit_test_setup(test_equal_thread_ready_takes_over, setup),
        cmocka_unit_test_setup(test_equal_thread_elsewhere_stays, setup),
        cmocka_unit_test_setup(test_equal_thread_pulled_at_slice_end, setup),
        cmocka_unit_test_setup(test_steal_names_source_queue, setup),
        cmocka_unit_test_setup(test_shared_tick, setup),
        cmocka_unit_test_setup(test_ready_recorded_under_other_queue_lock, setup),
        cmocka_unit_test(test_rt_blocked_thread_not_run_twice),
        cmocka_unit_test(test_rt_requeue_of_taken_thread),
        cmocka_unit_test(test_rt_random_exclusive),
        cmocka_unit_test(test_rt_random_interleaved),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
