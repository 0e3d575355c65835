// SPDX-License-Identifier: MIT
// Priority inversions in the wait analysis (tools/analysis/kx_wait.c) over hand-built event sequences
// on one CPU, whose answers are written by hand from the schedule below: every thread that ran
// in the owner's place while the waiter waited is named with its own share, largest first,
// the shares add up to the time lost, and a thread above the waiter's priority is no middle.
// Threads are their pid (tid 1); state events are wide ([pid, tid, prio, policy]).
// Also the one rule for "boosted" (kx_prio.c) over PRIO_CHANGE words built as the kernel's
// encoding says (trace/include/trace/kev.h: new | old << 8 | cause << 16), and the grouping of
// waits at a threshold (kx_wait_groups.c) against waits whose lengths are written here.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include <trace/kev.h>
#include <kevhost/kx_wait.h>

enum { LOW = 1, HIGH, MID_A, MID_B, TOP, MID_FIRST };
static const int prio_of[] = { 0, 10, 30, 20, 25, 40 }; // MID_FIRST + i: 11 + i

static int thread_of(void *user, uint32_t pid, uint32_t tid)
{
    (void)user;
    return tid == 1 ? (int)pid : -1;
}

static int prio(int th) { return th < MID_FIRST ? prio_of[th] : 11 + th - MID_FIRST; }

// Thread th enters `state` at t on CPU 0.
static void state(struct kw *k, uint64_t t, unsigned st, int th)
{
    uint32_t w[4] = { (uint32_t)th, 1, (uint32_t)prio(th), 2 };
    struct kev_event e = { .cls = KEV_C_PR_TH, .ev = st, .t64 = t, .w = w, .nw = 4 };
    kw_event(k, &e, th);
}

// th blocks at t on mutex obj held by owner (the kernel's MUTEX state then SYNC_WAIT).
static void block(struct kw *k, uint64_t t, int th, uint32_t obj, int owner)
{
    state(k, t, KEV_TH_MUTEX, th);
    uint32_t w[2] = { obj, (uint32_t)owner << 16 | 1u };
    struct kev_event e = { .cls = KEV_C_SYSTEM, .ev = KEV_SYS_SYNC_WAIT, .t64 = t, .w = w,
                           .nw = 2 };
    kw_event(k, &e, th);
}

static struct kw *new_kw(void)
{
    struct kw *k = malloc(sizeof(*k));
    assert_non_null(k);
    kw_init(k, thread_of, NULL);
    return k;
}

// LOW holds mutex 5; HIGH blocks on it at 110; MID_A runs 300, MID_B 600, MID_A 200 in LOW's
// place, TOP (above HIGH: no middle) 50; LOW runs and hands HIGH the mutex at 1350.
static void test_two_middles_each_their_share(void **st)
{
    (void)st;
    struct kw *k = new_kw();
    state(k, 0, KEV_TH_RUNNING, LOW);
    state(k, 100, KEV_TH_RUNNING, HIGH);      // LOW preempted, still READY
    block(k, 110, HIGH, 5, LOW);
    state(k, 110, KEV_TH_RUNNING, MID_A);     // first in LOW's place
    state(k, 410, KEV_TH_RUNNING, MID_B);
    state(k, 1010, KEV_TH_RUNNING, MID_A);
    state(k, 1210, KEV_TH_RUNNING, TOP);
    state(k, 1260, KEV_TH_RUNNING, LOW);
    state(k, 1350, KEV_TH_READY, HIGH);       // the unlock wakes HIGH
    kw_finish(k);

    assert_int_equal(k->ninv, 1);
    const struct kw_inv *v = &k->inv[0];
    assert_int_equal(v->waiter, HIGH);
    assert_int_equal(v->owner, LOW);
    assert_int_equal(v->lost, 300 + 600 + 200);
    assert_int_equal(v->count, 1);
    assert_int_equal(v->nmid, 2);
    assert_int_equal(v->mid[0].th, MID_B);    // the largest share first, not the first seen
    assert_int_equal(v->mid[0].lost, 600);
    assert_int_equal(v->mid[0].prio, 25);
    assert_int_equal(v->mid[1].th, MID_A);
    assert_int_equal(v->mid[1].lost, 500);
    assert_int_equal(v->others, 0);
    assert_int_equal(v->middle, MID_B);       // the single-name field: the largest
    assert_int_equal(v->pm, 25);
    // the wait itself: the owner preempted 1100 + 50 cycles, longest by MID_B
    const struct kw_wait *w = kw_wait_by_serial(k, 1);
    assert_non_null(w);
    assert_int_equal(w->own_ready, 1150);
    assert_int_equal(w->by, MID_B);
    kw_free(k);
    free(k);
}

// Two waits of HIGH on the same mutex: one finding, the shares summed per thread and sorted
// again (MID_A leads after the first wait, MID_B after both).
static void test_shares_summed_over_waits(void **st)
{
    (void)st;
    struct kw *k = new_kw();
    for (int r = 0; r < 2; r++) {
        uint64_t T = (uint64_t)r * 10000;
        state(k, T, KEV_TH_RUNNING, LOW);
        state(k, T + 100, KEV_TH_RUNNING, HIGH);
        block(k, T + 100, HIGH, 5, LOW);
        state(k, T + 100, KEV_TH_RUNNING, MID_A);
        state(k, T + 500, KEV_TH_RUNNING, MID_B);      // MID_A 400
        uint64_t b = r ? 1000 : 100;                   // MID_B 100, then 1000
        state(k, T + 500 + b, KEV_TH_RUNNING, LOW);
        state(k, T + 600 + b, KEV_TH_READY, HIGH);
        state(k, T + 600 + b, KEV_TH_RUNNING, HIGH);
        state(k, T + 700 + b, KEV_TH_NANOSLEEP, HIGH);
        state(k, T + 700 + b, KEV_TH_RUNNING, MID_A);
        state(k, T + 800 + b, KEV_TH_NANOSLEEP, MID_A);
        state(k, T + 800 + b, KEV_TH_RUNNING, MID_B);
        state(k, T + 900 + b, KEV_TH_NANOSLEEP, MID_B);
        state(k, T + 900 + b, KEV_TH_RUNNING, LOW);
        state(k, T + 1000 + b, KEV_TH_NANOSLEEP, LOW);
    }
    kw_finish(k);
    assert_int_equal(k->ninv, 1);
    const struct kw_inv *v = &k->inv[0];
    assert_int_equal(v->count, 2);
    assert_int_equal(v->lost, 500 + 1400);
    assert_int_equal(v->max, 1400);
    assert_int_equal(v->nmid, 2);
    assert_int_equal(v->mid[0].th, MID_B);
    assert_int_equal(v->mid[0].lost, 1100);
    assert_int_equal(v->mid[1].th, MID_A);
    assert_int_equal(v->mid[1].lost, 800);
    assert_int_equal(v->middle, MID_B);
    kw_free(k);
    free(k);
}

// More middle threads than a finding names (KW_MAX_PRE): the rest is counted in `others`,
// never dropped; the shares still add up to the time lost.
static void test_more_middles_than_kept(void **st)
{
    (void)st;
    struct kw *k = new_kw();
    const unsigned n = KW_MAX_PRE + 3;
    state(k, 0, KEV_TH_RUNNING, LOW);
    state(k, 100, KEV_TH_RUNNING, HIGH);
    block(k, 100, HIGH, 5, LOW);
    uint64_t t = 100;
    for (unsigned i = 0; i < n; i++) {               // middle i runs 10 * (i + 1) cycles
        state(k, t, KEV_TH_RUNNING, MID_FIRST + (int)i);
        t += 10 * (i + 1);
    }
    state(k, t, KEV_TH_RUNNING, LOW);
    state(k, t + 10, KEV_TH_READY, HIGH);
    kw_finish(k);
    assert_int_equal(k->ninv, 1);
    const struct kw_inv *v = &k->inv[0];
    assert_int_equal(v->lost, 10 * n * (n + 1) / 2);
    assert_int_equal(v->nmid, KW_MAX_PRE);
    uint64_t sum = v->others;
    for (unsigned i = 0; i < v->nmid; i++) {
        sum += v->mid[i].lost;
        if (i)
            assert_true(v->mid[i].lost <= v->mid[i - 1].lost);
    }
    assert_int_equal(sum, v->lost);
    assert_int_equal(v->others, 10 * (KW_MAX_PRE + 1) + 10 * (KW_MAX_PRE + 2) + 10 * (KW_MAX_PRE + 3));
    kw_free(k);
    free(k);
}

// t: thread th's priority goes from old to now for `cause` (KEV_PRIO_*).
static void prio_change(struct kw *k, uint64_t t, int th, unsigned old, unsigned now,
                        unsigned cause)
{
    uint32_t w[2] = { (uint32_t)th << 16 | 1u, now | old << 8 | cause << 16 };
    struct kev_event e = { .cls = KEV_C_SYSTEM, .ev = KEV_SYS_PRIO_CHANGE, .t64 = t, .w = w,
                           .nw = 2 };
    kw_event(k, &e, th);
}

// A server lowered and raised by its clients' messages is never boosted; an owner raised by a
// mutex waiter is, once; lowered while still inheriting, back at the end, its own change: not.
// Each keeps its own priority apart from the one it inherits.
static void test_boost_rule(void **st)
{
    (void)st;
    struct kw *k = new_kw();
    state(k, 0, KEV_TH_RUNNING, LOW);
    prio_change(k, 10, MID_A, 20, 5, KEV_PRIO_MSG);       // a client of 5 sends
    prio_change(k, 20, MID_A, 5, 20, KEV_PRIO_INH_END);   // the server replies
    prio_change(k, 30, MID_A, 20, 35, KEV_PRIO_MSG);      // a client of 35 sends
    prio_change(k, 40, MID_A, 35, 20, KEV_PRIO_INH_END);
    prio_change(k, 50, LOW, 10, 30, KEV_PRIO_MUTEX);      // HIGH waits on what LOW holds
    prio_change(k, 60, LOW, 30, 25, KEV_PRIO_MUTEX);      // HIGH gave up, MID_B still waits
    prio_change(k, 70, LOW, 25, 10, KEV_PRIO_INH_END);    // LOW unlocks
    prio_change(k, 80, TOP, 40, 5, KEV_PRIO_CALL);        // TOP lowers itself
    prio_change(k, 90, MID_B, 25, 40, KEV_PRIO_MUTEX);    // boosted when the trace ends
    kw_finish(k);
    assert_int_equal(k->th[LOW].boosts, 1);
    assert_int_equal(k->th[LOW].prio_n[KX_PRIO_BOOST_LESS], 1);
    assert_int_equal(k->th[LOW].prio_n[KX_PRIO_INH_END], 1);
    assert_int_equal(k->th[MID_A].boosts, 0);
    assert_int_equal(k->th[MID_A].prio_n[KX_PRIO_MSG_UP], 1);
    assert_int_equal(k->th[MID_A].prio_n[KX_PRIO_MSG_DOWN], 1);
    assert_int_equal(k->th[TOP].boosts, 0);
    assert_int_equal(k->th[TOP].prio_n[KX_PRIO_OWN], 1);
    assert_int_equal(kx_prio_kind(5u, 20u, 7u), KX_PRIO_UNKNOWN);
    // each thread's own priority (kevstat's label of the lines above), not the inherited one
    // it may end with
    assert_int_equal(k->th[LOW].own_prio, 10);
    assert_int_equal(k->th[MID_A].own_prio, 20);
    assert_int_equal(k->th[TOP].own_prio, 5);
    assert_int_equal(k->th[MID_B].prio, 40);
    assert_int_equal(k->th[MID_B].own_prio, 25);
    assert_int_equal(k->th[MID_B].boosts, 1);
    kw_free(k);
    free(k);
}

// HIGH wakes from a sleep every 1000 cycles (its period: 1% is 10) and waits on mutex 5 held by
// LOW for 50, 150 and 400 cycles; a fourth wake-up without a wait.
static struct kw *periodic_waits(void)
{
    static const uint64_t len[] = { 50, 150, 400 };
    struct kw *k = new_kw();
    state(k, 0, KEV_TH_RUNNING, LOW);
    state(k, 1, KEV_TH_NANOSLEEP, HIGH);
    for (unsigned i = 0; i < 4; i++) {
        uint64_t t = 1000 * (i + 1);
        state(k, t, KEV_TH_RUNNING, HIGH);              // woken, LOW preempted
        if (i < 3) {
            block(k, t + 10, HIGH, 5, LOW);
            state(k, t + 10, KEV_TH_RUNNING, LOW);
            state(k, t + 10 + len[i], KEV_TH_RUNNING, HIGH); // handed the mutex
        }
        state(k, t + 600, KEV_TH_NANOSLEEP, HIGH);
        state(k, t + 600, KEV_TH_RUNNING, LOW);
    }
    kw_finish(k);
    return k;
}

static void test_wait_groups_threshold(void **st)
{
    (void)st;
    struct kw *k = periodic_waits();
    struct kw_group *g;
    uint64_t under;
    assert_int_equal(kw_period(k, HIGH), 1000);
    // a threshold of 100 cycles: the waits of 150 and 400, the one of 50 counted apart
    assert_int_equal(kw_wait_groups(k, 100, 0, &g, &under), 1);
    assert_int_equal(g[0].waiter, HIGH);
    assert_int_equal(g[0].owner, LOW);
    assert_int_equal(k->obj[g[0].obj].id, 5);
    assert_int_equal(g[0].count, 2);
    assert_int_equal(g[0].total, 550);
    assert_int_equal(g[0].worst, 400);
    assert_int_equal(g[0].worst_t0, 3010);
    assert_int_equal(under, 1);
    free(g);
    // the default of 100: HIGH's own, 1% of its period (10), is lower: every wait
    assert_int_equal(kw_wait_groups(k, 0, 100, &g, &under), 1);
    assert_int_equal(g[0].count, 3);
    assert_int_equal(g[0].total, 600);
    assert_int_equal(g[0].min, 10);
    assert_int_equal(under, 0);
    free(g);
    // over every wait: no group, every wait counted under
    assert_int_equal(kw_wait_groups(k, 1000, 0, &g, &under), 0);
    assert_null(g);
    assert_int_equal(under, 3);
    kw_free(k);
    free(k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_middles_each_their_share),
        cmocka_unit_test(test_shares_summed_over_waits),
        cmocka_unit_test(test_more_middles_than_kept),
        cmocka_unit_test(test_boost_rule),
        cmocka_unit_test(test_wait_groups_threshold),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
