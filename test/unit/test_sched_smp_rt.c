// SPDX-License-Identifier: MIT
// The per-CPU run queues (kernel/sched.c, KMAX_CPUS=4) against the rules they keep, on 4
// simulated CPUs: random wake-ups, blocks, affinities (ThreadCtl's runmask) and priority
// changes (the priority-inheritance pattern: in a shared entry sched_set_prio_shared, whatever
// the thread's state; exclusive, a READY thread requeued with sched_remove and
// sched_make_ready, another's priority set), each done in a kernel entry of one CPU,
// shared or exclusive. Shared entries interleave: a CPU may stay in the kernel after its
// thread blocked, its choice still to come, while the others wake that thread and choose.
// Reschedule IPIs are each CPU's `kicked` flag, delivered as an entry that only chooses.
//
// The oracle looks at nothing of sched.c's queues: only each thread's state, priority and
// affinity, each CPU's current, and the test's own record of which threads it blocked.
// - After every choice: the chosen thread is RUNNING, may run on that CPU, and is no other
//   CPU's current (a thread is never run twice, not even one still on the CPU it blocked on).
// - Once every entry has ended and every IPI was taken (quiescence, which must come):
//   every CPU runs a RUNNING thread it may run, no two the same; every thread the test did
//   not block is READY or RUNNING (no thread lost), and RUNNING ones are some CPU's current;
//   the real-time rule: no READY thread has a CPU in its affinity running a lower priority;
//   and, when no runnable thread is bound to some CPUs, a brute-force check that the running
//   priorities are the N highest of the runnable ones (N = 4, the idle threads counting 0).
// - At the end every CPU's thread is blocked in turn until all run idle: then no thread may be
//   left READY (each one made ready was found again and ran).
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <kernel/sched.h>
#include <kernel/thread.h>

extern struct cpu *test_this_cpu;
extern int test_in_shared;

#define NCPU 4
#define NUSER 14
#define NTH (NCPU + NUSER)      // threads 0..3: the CPUs' idle threads

static struct thread th[NTH];
static bool blocked[NTH];       // the test blocked it (and has not woken it since)
static bool in_kernel[NCPU];    // a shared entry whose choice is still to come
static bool entry_shared[NCPU];
static uint32_t rng;

static uint32_t rnd(uint32_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng % n;
}

static void on(unsigned c, bool shared)
{
    test_this_cpu = &k_cpus[c];
    test_in_shared = shared;
}

static bool allowed(const struct thread *t, unsigned c)
{
    return !t->affinity || ((t->affinity >> c) & 1u);
}

static bool is_idle(const struct thread *t)
{
    return t < &th[NCPU];
}

// The checks after CPU c's choice.
static void check_choice(unsigned c, const struct thread *n)
{
    assert_ptr_equal(k_cpus[c].current, n);
    assert_int_equal(n->state, THS_RUNNING);
    assert_true(allowed(n, c));
    for (unsigned d = 0; d < NCPU; d++)
        if (d != c && k_cpus[d].current == n)
            fail_msg("thread %d chosen by CPU %u is still CPU %u's (run twice)",
                     (int)(n - th), c, d);
}

static void enter(unsigned c, bool shared)
{
    on(c, shared);
    k_cpus[c].kicked = false;       // (the entry clears it: kentry_shared.h, main.c)
    entry_shared[c] = shared;
}

static void leave(unsigned c)
{
    on(c, entry_shared[c]);
    struct thread *n;
    if (entry_shared[c]) {
        n = sched_choose_shared();  // (which kicks the others itself)
    } else {
        n = sched_choose();
        sched_kick_others();
    }
    in_kernel[c] = false;
    check_choice(c, n);
}

static bool any_in_kernel(void)
{
    for (unsigned c = 0; c < NCPU; c++)
        if (in_kernel[c])
            return true;
    return false;
}

// The work of one kernel entry on CPU c.
static void op(unsigned c)
{
    struct thread *cur = k_cpus[c].current;
    unsigned kind = rnd(10);
    if (getenv("RTTRACE"))
        print_message("cpu%u op %u cur t%d\n", c, kind, (int)(cur - th));
    if (kind < 4) {                         // a blocked thread made ready
        unsigned i = NCPU + rnd(NUSER);
        if (blocked[i]) {
            blocked[i] = false;
            sched_make_ready(&th[i], false);
        }
    } else if (kind < 7) {                  // the running thread blocks
        if (!is_idle(cur) && cur->state == THS_RUNNING) {
            cur->state = THS_SEND;
            blocked[cur - th] = true;
        }
    } else if (kind < 8) {                  // ThreadCtl(KTCTL_RUNMASK)
        if (!is_idle(cur) && cur->state == THS_RUNNING)
            assert_int_equal(sched_set_runmask(cur, 1u + rnd(15)), 0);
    } else {                                // a new priority (inheritance, SchedSet)
        struct thread *t = &th[NCPU + rnd(NUSER)];
        uint8_t p = (uint8_t)(1 + rnd(12));
        if (entry_shared[c]) {
            // thread.c prio_set in a shared entry: one call under every queue's lock, whatever
            // t's state by then; a CPU whose choice was pending may first take t, requeue it,
            // or leave it READY on its queue.
            for (unsigned d = 0; d < NCPU; d++)
                if (d != c && in_kernel[d] && rnd(2))
                    leave(d);
            on(c, true);
            sched_set_prio_shared(t, p);
        } else if (t->state == THS_READY) {
            sched_remove(t);
            t->prio = p;
            sched_make_ready(t, false);
        } else {
            bool lowered = p < t->prio && t->state == THS_RUNNING;
            t->prio = p;
            if (lowered)
                sched_running_prio_lowered();
        }
    }
}

// Every pending choice made and every IPI taken; there must be an end to it.
static void quiesce(void)
{
    for (unsigned c = 0; c < NCPU; c++)
        if (in_kernel[c])
            leave(c);
    for (unsigned round = 0;; round++) {
        bool any = false;
        for (unsigned c = 0; c < NCPU; c++) {
            if (k_cpus[c].kicked) {
                any = true;
                enter(c, rnd(2));
                leave(c);
            }
        }
        if (!any)
            return;
        if (round > 64)
            fail_msg("reschedule IPIs never stop");
    }
}

static int cmp_desc(const void *a, const void *b)
{
    return *(const int *)b - *(const int *)a;
}

static void oracle(void)
{
    int running[NCPU], runnable[NTH];
    unsigned nrunnable = 0;
    bool bound = false;
    for (unsigned c = 0; c < NCPU; c++) {
        const struct thread *cur = k_cpus[c].current;
        assert_int_equal(cur->state, THS_RUNNING);
        assert_true(allowed(cur, c));
        for (unsigned d = 0; d < c; d++)
            assert_ptr_not_equal(k_cpus[d].current, cur);
        running[c] = cur->prio;
    }
    for (unsigned i = 0; i < NTH; i++) {
        const struct thread *t = &th[i];
        if (blocked[i]) {
            assert_int_equal(t->state, THS_SEND);
            continue;
        }
        unsigned on_cpus = 0;
        for (unsigned c = 0; c < NCPU; c++)
            on_cpus += k_cpus[c].current == t;
        if (t->state == THS_RUNNING) {
            assert_int_equal(on_cpus, 1);
        } else {
            assert_int_equal(t->state, THS_READY);
            assert_int_equal(on_cpus, 0);
            for (unsigned c = 0; c < NCPU; c++) {
                if (!allowed(t, c) || k_cpus[c].current->prio >= t->prio)
                    continue;
                if (getenv("RTDEBUG"))
                    for (unsigned d = 0; d < NCPU; d++)
                        print_message("t%u aff %x rq %u cpu %u | CPU %u runs t%d prio %u\n", i,
                                      t->affinity, t->rq_cpu, t->cpu, d,
                                      (int)(k_cpus[d].current - th), k_cpus[d].current->prio);
                fail_msg("thread %u (prio %u) waits while CPU %u runs prio %u", i, t->prio, c,
                         k_cpus[c].current->prio);
            }
        }
        if (!is_idle(t)) {
            runnable[nrunnable++] = t->prio;
            bound |= t->affinity != 0;
        }
    }
    if (bound)
        return;
    // No affinity among the runnable: the running set is the N highest (idle threads: 0).
    for (unsigned c = 0; c < NCPU; c++)
        runnable[nrunnable++] = 0;
    qsort(runnable, nrunnable, sizeof runnable[0], cmp_desc);
    qsort(running, NCPU, sizeof running[0], cmp_desc);
    for (unsigned c = 0; c < NCPU; c++)
        assert_int_equal(running[c], runnable[c]);
}

static void setup_cpus(uint32_t seed)
{
    rng = seed;
    on(0, false);
    sched_init();
    k_ncpus = NCPU;
    memset(th, 0, sizeof th);
    memset(in_kernel, 0, sizeof in_kernel);
    for (unsigned i = 0; i < NTH; i++) {
        struct thread *t = &th[i];
        list_init(&t->qlink);
        t->policy = SCHED_POLICY_FIFO;
        if (i < NCPU) {
            t->affinity = 1u << i;          // idle: priority 0, pinned
            blocked[i] = false;
            sched_make_ready(t, false);
        } else {
            t->prio = t->base_prio = (uint8_t)(1 + rnd(12));
            t->affinity = rnd(2) ? 0 : 1u + rnd(15);
            t->cpu = (uint8_t)rnd(NCPU);
            t->state = THS_SEND;
            blocked[i] = true;
        }
    }
    for (unsigned c = 0; c < NCPU; c++) {
        k_cpus[c].online = true;
        k_cpus[c].idle = &th[c];
        enter(c, false);
        leave(c);
        assert_ptr_equal(k_cpus[c].current, &th[c]);
    }
}

// Blocks every CPU's thread in turn until all run idle: nothing may be left READY.
static void drain(void)
{
    for (unsigned round = 0; round < 4 * NTH; round++) {
        bool busy = false;
        for (unsigned c = 0; c < NCPU; c++) {
            struct thread *cur = k_cpus[c].current;
            if (is_idle(cur))
                continue;
            busy = true;
            enter(c, rnd(2));
            cur->state = THS_SEND;
            blocked[cur - th] = true;
            leave(c);
            quiesce();
            oracle();
        }
        if (!busy)
            break;
    }
    for (unsigned i = NCPU; i < NTH; i++)
        if (!blocked[i])
            fail_msg("thread %u was made ready and never ran (lost)", i);
}

static void random_run(uint32_t seed, bool interleave)
{
    setup_cpus(seed);
    for (unsigned step = 0; step < 3000; step++) {
        unsigned c = rnd(NCPU);
        if (in_kernel[c]) {
            leave(c);
        } else if (interleave) {
            bool shared = any_in_kernel() || rnd(4);    // (exclusive: the kernel to itself)
            enter(c, shared);
            op(c);
            if (shared && rnd(2))
                in_kernel[c] = true;        // its choice later, after others' entries
            else
                leave(c);
        } else {
            enter(c, rnd(2));
            op(c);
            leave(c);
        }
        if (rnd(8) == 0 || (!interleave && rnd(2)) || getenv("RTTRACE")) {
            quiesce();
            oracle();
        }
    }
    quiesce();
    oracle();
    drain();
}

// Entries one at a time, each ending with its choice (as the exclusive side runs them).
void test_rt_random_exclusive(void **state)
{
    (void)state;
    for (uint32_t seed = 1; seed <= 40; seed++)
        random_run(seed * 2654435761u, false);
}

// Shared entries interleaved: choices come late, after other CPUs' entries.
void test_rt_random_interleaved(void **state)
{
    (void)state;
    for (uint32_t seed = 1; seed <= 40; seed++)
        random_run(seed * 40503u + 7u, true);
}

// The double run the run-queue lock used to prevent: a thread blocks on CPU 0, whose choice
// has not come yet; CPU 1 makes it ready and chooses. CPU 1 must not run it while it is still
// CPU 0's; once CPU 0 has chosen, it runs on exactly one CPU.
void test_rt_blocked_thread_not_run_twice(void **state)
{
    (void)state;
    setup_cpus(12345);
    struct thread *a = &th[NCPU];
    a->prio = 10;
    a->affinity = 0;
    blocked[NCPU] = false;
    enter(0, false);
    sched_make_ready(a, false);
    leave(0);
    quiesce();
    assert_ptr_equal(k_cpus[0].current, a);
    enter(0, true);                         // a blocks on CPU 0 ...
    a->state = THS_SEND;
    blocked[NCPU] = true;
    enter(1, true);                         // ... CPU 1 wakes it and chooses first
    blocked[NCPU] = false;
    sched_make_ready(a, false);
    leave(1);
    assert_ptr_not_equal(k_cpus[1].current, a);
    leave(0);                               // CPU 0's choice: now a may run anywhere
    quiesce();
    oracle();
    unsigned runs = 0;
    for (unsigned c = 0; c < NCPU; c++)
        runs += k_cpus[c].current == a;
    assert_int_equal(runs, 1);
}

// A priority set in a shared entry (sched_set_prio_shared) of a thread seen READY while another
// CPU's pending choice takes it first: the thread stays that CPU's, RUNNING, at its new
// priority, on no queue. Then the same thread, put back on CPU 1's queue by a preemption, has
// its priority set from CPU 2: it is requeued at the new priority, and the next choices find
// it there (a list and map that disagreed left a map bit over an empty list, or lost it).
void test_rt_requeue_of_taken_thread(void **state)
{
    (void)state;
    setup_cpus(777);
    for (unsigned i = NCPU; i < NCPU + 5; i++) {
        th[i].prio = i < NCPU + 4 ? 20 : 5;
        th[i].affinity = 0;
        enter(0, false);
        blocked[i] = false;
        sched_make_ready(&th[i], false);
        leave(0);
        quiesce();
    }
    struct thread *b = &th[NCPU + 4];
    assert_int_equal(b->state, THS_READY);          // four CPUs run priority 20
    enter(1, true);                                 // CPU 1's thread blocks, its choice later
    struct thread *gone = k_cpus[1].current;
    gone->state = THS_SEND;
    blocked[gone - th] = true;
    in_kernel[1] = true;
    enter(2, true);                                 // CPU 2 is to raise b ...
    assert_int_equal(b->state, THS_READY);
    leave(1);                                       // ... CPU 1's choice takes it first
    assert_ptr_equal(k_cpus[1].current, b);
    on(2, true);
    sched_set_prio_shared(b, 3);
    assert_int_equal(b->state, THS_RUNNING);        // (CPU 1 runs it: it is on no queue)
    assert_int_equal(b->prio, 3);
    leave(2);
    quiesce();
    oracle();
    assert_ptr_equal(k_cpus[1].current, b);
    assert_int_equal(b->state, THS_RUNNING);
    assert_int_equal(b->prio, 3);

    // b preempted on CPU 1: a thread of priority 10 bound there made ready, CPU 1 chooses
    struct thread *hi = &th[NCPU + 6];
    hi->prio = 10;
    hi->affinity = 1u << 1;
    enter(1, true);
    blocked[hi - th] = false;
    sched_make_ready(hi, false);
    leave(1);
    assert_ptr_equal(k_cpus[1].current, hi);
    assert_int_equal(b->state, THS_READY);          // back on a queue at priority 3
    enter(2, true);                                 // CPU 2 raises it to 30
    sched_set_prio_shared(b, 30);
    assert_int_equal(b->state, THS_READY);
    leave(2);
    quiesce();
    oracle();                                       // it runs now, above everything else
    assert_int_equal(b->state, THS_RUNNING);
    assert_int_equal(b->prio, 30);
    // every thread blocked in turn: each must be found again on its queue
    for (unsigned round = 0; round < 2 * NTH; round++)
        for (unsigned c = 0; c < NCPU; c++) {
            struct thread *cur = k_cpus[c].current;
            if (is_idle(cur))
                continue;
            enter(c, true);
            cur->state = THS_SEND;
            blocked[cur - th] = true;
            leave(c);
            quiesce();
        }
    for (unsigned i = NCPU; i < NTH; i++)
        assert_int_not_equal(th[i].state, THS_READY);
}
