// SPDX-License-Identifier: MIT
// Unit tests (cmocka, under ASan/UBSan) of the wait chains (tools/analysis/kx_chain.c) over
// hand-built event sequences fed to the analyses (kx_stats.c), whose answers are written here
// from the schedule each test draws:
//   * a client's send to a server that waits on a mutex a third thread holds (preempted by a
//     fourth meanwhile): the client's wait cut into three stretches (server running, the
//     holder, the server again), each link's time, the time attributed to each root, the
//     stretches given to the sink as they end, the worst wait's path;
//   * a send to a driver that then waits in its receive for its device's interrupt: that time
//     goes to the interrupt (the input), none to the driver; a wait still open at the end on
//     input not come;
//   * a send to a busy server: the stretch until the receive is given to the receiver;
//   * a condvar wait: nobody known while it lasts, the signaller when it ends;
//   * a mutex handed on: a second waiter's chain moves from the old owner to the new one;
//   * a deadlock through a message and a mutex: recorded once from the thread that closed
//     it, broken when one of its waits ends; the chains of its threads end in the cycle.
// Threads are pid N, tid 1, all on CPU 0; times are cycles of a 1 MHz clock.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <kevhost/kx_stats.h>
#include <kevhost/kx_chain_text.h>
#include "kx_events.h"

enum { CLI = 2, SRV = 3, HOLD = 4, HOG = 5, SRV2 = 6 };
enum { MUTEX_LOCK = 80, MUTEX_UNLOCK = 81 };

static void th(struct kx_stats *s, unsigned st, uint64_t t, uint32_t pid)
{
    kx_stats_event(s, mk(KEV_C_PR_TH, st, t, pid, 1, 10 * pid, 2, 4));
}

static void comm(struct kx_stats *s, unsigned e, uint64_t t, uint32_t a, uint32_t b)
{
    kx_stats_event(s, mk(KEV_C_COMM, e, t, a, b, 0, 0, 2));
}

// pid blocks on mutex obj held by owner (its MUTEX state, then SYNC_WAIT).
static void block(struct kx_stats *s, uint64_t t, uint32_t pid, uint32_t obj, uint32_t owner)
{
    th(s, KEV_TH_MUTEX, t, pid);
    kx_stats_event(s, mk(KEV_C_SYSTEM, KEV_SYS_SYNC_WAIT, t, obj, owner << 16 | 1u, 0, 0, 2));
}

static void unlock(struct kx_stats *s, uint64_t t, uint32_t obj)
{
    kx_stats_event(s, mk(KEV_C_KER_CALL, KEV_KC_ENTRY(MUTEX_UNLOCK), t, obj, 0, 0, 0, 2));
}

static int idx(struct kx_stats *s, uint32_t pid) { return kx_thread(&s->m, pid, 1); }

// The stretches the sink got, in the order they ended.
static struct kx_chain_row rows[16];
static unsigned nrows;
static void on_chain(void *user, const struct kx_chain_row *r)
{
    (void)user;
    if (nrows < 16)
        rows[nrows++] = *r;
}

static struct kx_stats *stats_with_rows(void)
{
    struct kx_stats *s = new_stats();
    nrows = 0;
    kx_stats_sink(s, &(struct kx_sink){ .chain = on_chain });
    return s;
}

static uint64_t pair_t(const struct kx_stats *s, int waiter, int root)
{
    for (size_t i = 0; i < s->chains->npair; i++)
        if (s->chains->pair[i].waiter == waiter && s->chains->pair[i].root == root)
            return s->chains->pair[i].t;
    return 0;
}

static uint64_t root_t(const struct kx_cwait *w, int th)
{
    for (unsigned i = 0; i < w->nroot; i++)
        if (w->root[i].th == th)
            return w->root[i].t;
    return 0;
}

static void done(struct kx_stats *s)
{
    kx_stats_free(s);
    free(s);
}

// CLI sends to SRV (a driver, waiting in its receive) at 110; SRV runs 40, then waits in its
// receive for its device: irq 5's pulse at 400 wakes it, it replies at 450. Then a second
// request at 600, SRV waits again and the trace ends at 900 with its input not come. The
// client's time: 40 + 50 on SRV, 250 on interrupt 5 (its input), 300 on input not come; none
// of the waiting on SRV itself.
static void test_wait_on_input_goes_to_the_input(void **state)
{
    (void)state;
    struct kx_stats *s = stats_with_rows();
    th(s, KEV_TH_RECEIVE, 0, SRV);
    th(s, KEV_TH_RUNNING, 0, CLI);
    for (unsigned k = 0; k < 2; k++) {
        uint64_t b = k ? 600 : 110;
        uint32_t rcvid = 0x108 + k;
        comm(s, KEV_COMM_SND_MESSAGE, b, rcvid, SRV);
        comm(s, KEV_COMM_REC_MESSAGE, b, rcvid, SRV << 16 | 1u);
        th(s, KEV_TH_READY, b, SRV);
        th(s, KEV_TH_REPLY, b, CLI);
        th(s, KEV_TH_RUNNING, b, SRV);
        th(s, KEV_TH_RECEIVE, b + 40, SRV);                  // waits for its device
        if (k)
            break;
        kx_stats_event(s, mk(KEV_C_INT, KEV_INT_ENTER, 400, 5, 0, 0, 0, 2));
        comm(s, KEV_COMM_SND_PULSE, 400, 1, 0x50001);
        comm(s, KEV_COMM_REC_PULSE, 400, 0x50001, SRV << 16 | 1u);
        th(s, KEV_TH_READY, 400, SRV);
        kx_stats_event(s, mk(KEV_C_INT, KEV_INT_EXIT, 401, 5, 0, 0, 0, 2));
        th(s, KEV_TH_RUNNING, 401, SRV);
        comm(s, KEV_COMM_REPLY_MESSAGE, 450, rcvid, CLI);
        th(s, KEV_TH_READY, 450, CLI);
        th(s, KEV_TH_RECEIVE, 450, SRV);
        th(s, KEV_TH_RUNNING, 450, CLI);
    }
    th(s, KEV_TH_RUNNING, 900, HOG);                          // the trace's last event
    kx_stats_finish(s);
    int cli = idx(s, CLI), srv = idx(s, SRV);
    assert_int_equal(pair_t(s, cli, srv), 40 + 50 + 40);
    assert_int_equal(pair_t(s, cli, KX_ROOT_INPUT(5)), 250);
    assert_int_equal(pair_t(s, cli, KX_ROOT_INPUT(KX_INPUT_OPEN - 1u)), 900 - 640);
    char b[80];
    assert_string_equal(kx_chain_root_name(s, KX_ROOT_INPUT(5), b, sizeof(b)), "interrupt 5");
    assert_int_equal(rows[1].c.end, KX_END_INPUT);
    assert_int_equal(kx_chain_root(&rows[1].c), KX_ROOT_INPUT(5));
    done(s);
}

// CLI sends to SRV (waiting in its receive) at 110; SRV runs, blocks at 150 on mutex 7 that
// HOLD holds; HOG preempts HOLD 200..300; HOLD unlocks at 400, SRV runs and replies at 450.
static void test_send_server_mutex_holder(void **state)
{
    (void)state;
    struct kx_stats *s = stats_with_rows();
    th(s, KEV_TH_RUNNING, 0, HOLD);
    th(s, KEV_TH_RECEIVE, 0, SRV);
    th(s, KEV_TH_NANOSLEEP, 0, CLI);
    th(s, KEV_TH_NANOSLEEP, 0, HOG);
    th(s, KEV_TH_READY, 100, CLI);
    th(s, KEV_TH_RUNNING, 100, CLI);
    comm(s, KEV_COMM_SND_MESSAGE, 110, 0x108, SRV);
    comm(s, KEV_COMM_REC_MESSAGE, 110, 0x108, SRV << 16 | 1u); // handed to SRV, waiting
    th(s, KEV_TH_READY, 110, SRV);
    th(s, KEV_TH_REPLY, 110, CLI);
    th(s, KEV_TH_RUNNING, 110, SRV);
    block(s, 150, SRV, 7, HOLD);
    th(s, KEV_TH_RUNNING, 150, HOLD);
    th(s, KEV_TH_READY, 200, HOG);
    th(s, KEV_TH_RUNNING, 200, HOG);
    th(s, KEV_TH_NANOSLEEP, 300, HOG);
    th(s, KEV_TH_RUNNING, 300, HOLD);
    unlock(s, 400, 7);
    th(s, KEV_TH_READY, 400, SRV);                            // handed the mutex
    th(s, KEV_TH_RUNNING, 400, SRV);
    comm(s, KEV_COMM_REPLY_MESSAGE, 450, 0x108, CLI);
    th(s, KEV_TH_READY, 450, CLI);
    th(s, KEV_TH_RECEIVE, 450, SRV);
    th(s, KEV_TH_RUNNING, 450, CLI);
    th(s, KEV_TH_NANOSLEEP, 500, CLI);
    kx_stats_finish(s);
    int cli = idx(s, CLI), srv = idx(s, SRV), hold = idx(s, HOLD);
    const struct kx_cwaiter *c = s->chains->waiter[cli], *v = s->chains->waiter[srv];
    assert_non_null(c);
    assert_non_null(v);
    assert_int_equal(c->count, 1);
    assert_int_equal(c->total, 340);
    assert_int_equal(v->count, 1);
    assert_int_equal(v->total, 250);
    // the client's wait: the server ran 40 + 50, the holder (running or preempted) 250
    const struct kx_cwait *w = &c->worst;
    assert_int_equal(w->t0, 110);
    assert_int_equal(w->t1, 450);
    assert_int_equal(w->depth, 2);
    assert_int_equal(root_t(w, srv), 90);
    assert_int_equal(root_t(w, hold), 250);
    assert_int_equal(pair_t(s, cli, hold), 250);
    assert_int_equal(pair_t(s, srv, hold), 250);
    const struct kx_wlink *p[4];
    assert_int_equal(kx_cwait_path(w, p, 4), 2);
    assert_int_equal(p[0]->from, cli);
    assert_int_equal(p[0]->l.kind, KX_LINK_REPLY);
    assert_int_equal(p[0]->l.to, srv);
    assert_int_equal(p[0]->t, 340);
    assert_int_equal(p[1]->from, srv);
    assert_int_equal(p[1]->l.kind, KX_LINK_MUTEX);
    assert_int_equal(p[1]->l.to, hold);
    assert_int_equal(p[1]->t, 250);
    assert_int_equal(s->kw->obj[p[1]->l.obj].id, 7);
    // the stretches as they ended: the client's first at the block; at the server's wake-up
    // (handed the mutex: the holder until then) the server's wait, then the client's second;
    // the client's last at the reply
    assert_int_equal(nrows, 4);
    assert_int_equal(rows[0].t0, 110);
    assert_int_equal(rows[0].t1, 150);
    assert_int_equal(kx_chain_root(&rows[0].c), srv);
    assert_int_equal(rows[1].c.th[0], srv);
    assert_int_equal(rows[1].t0, 150);
    assert_int_equal(rows[1].t1, 400);
    assert_int_equal(kx_chain_root(&rows[1].c), hold);
    assert_int_equal(rows[2].c.th[0], cli);
    assert_int_equal(rows[2].t0, 150);
    assert_int_equal(rows[2].t1, 400);
    assert_int_equal(rows[2].c.n, 2);
    assert_int_equal(kx_chain_root(&rows[2].c), hold);
    assert_int_equal(rows[2].wait, rows[0].wait);
    assert_int_equal(rows[3].t0, 400);
    assert_int_equal(rows[3].t1, 450);
    assert_int_equal(kx_chain_root(&rows[3].c), srv);
    assert_int_equal(s->chains->ndl, 0);
    done(s);
}

// CLI sends at 100 while SRV works; SRV receives it at 160 (in its own context) and replies
// at 200: the send's stretch is SRV's (given at the receive), then the reply's.
static void test_send_to_a_busy_server(void **state)
{
    (void)state;
    struct kx_stats *s = stats_with_rows();
    th(s, KEV_TH_RUNNING, 0, CLI);
    comm(s, KEV_COMM_SND_MESSAGE, 100, 5, SRV);
    th(s, KEV_TH_SEND, 100, CLI);
    th(s, KEV_TH_RUNNING, 100, SRV);
    comm(s, KEV_COMM_REC_MESSAGE, 160, 1, CLI);               // the documented form
    th(s, KEV_TH_REPLY, 160, CLI);
    comm(s, KEV_COMM_REPLY_MESSAGE, 200, 1, CLI);
    th(s, KEV_TH_READY, 200, CLI);
    th(s, KEV_TH_RECEIVE, 200, SRV);
    th(s, KEV_TH_RUNNING, 200, CLI);
    kx_stats_finish(s);
    int cli = idx(s, CLI), srv = idx(s, SRV);
    const struct kx_cwait *w = &s->chains->waiter[cli]->worst;
    assert_int_equal(w->t1 - w->t0, 100);
    assert_int_equal(root_t(w, srv), 100);
    assert_int_equal(nrows, 2);
    assert_int_equal(rows[0].t1, 160);
    assert_int_equal(rows[0].c.link[0].kind, KX_LINK_SEND);
    assert_int_equal(rows[0].c.link[0].to, srv);
    assert_int_equal(rows[0].c.link[0].given, 1);             // not known while it lasted
    assert_int_equal(rows[1].c.link[0].kind, KX_LINK_REPLY);
    assert_int_equal(rows[1].c.link[0].given, 0);
    done(s);
}

// HOLD waits on condvar 9 from 50; SRV signals it at 300 (HOLD made ready where SRV runs).
static void test_condvar_given_its_signaller(void **state)
{
    (void)state;
    struct kx_stats *s = stats_with_rows();
    th(s, KEV_TH_RUNNING, 0, HOLD);
    th(s, KEV_TH_CONDVAR, 50, HOLD);
    kx_stats_event(s, mk(KEV_C_SYSTEM, KEV_SYS_SYNC_WAIT, 50, 9, 0, 0, 0, 2));
    th(s, KEV_TH_RUNNING, 50, SRV);
    th(s, KEV_TH_READY, 300, HOLD);
    th(s, KEV_TH_RECEIVE, 310, SRV);
    th(s, KEV_TH_RUNNING, 310, HOLD);
    kx_stats_finish(s);
    int hold = idx(s, HOLD), srv = idx(s, SRV);
    const struct kx_cwait *w = &s->chains->waiter[hold]->worst;
    assert_int_equal(w->t1 - w->t0, 250);
    assert_int_equal(root_t(w, srv), 250);
    assert_int_equal(nrows, 1);
    assert_int_equal(rows[0].c.link[0].kind, KX_LINK_COND);
    assert_int_equal(rows[0].c.link[0].to, srv);
    assert_int_equal(rows[0].c.link[0].given, 1);
    done(s);
}

// HOLD holds mutex 7; SRV (10: first) and CLI wait on it; HOLD hands it to SRV at 300: CLI now
// waits on SRV, which runs until it unlocks at 420 and hands it to CLI.
static void test_mutex_handed_on(void **state)
{
    (void)state;
    struct kx_stats *s = stats_with_rows();
    th(s, KEV_TH_RUNNING, 0, SRV);
    block(s, 10, SRV, 7, HOLD);
    th(s, KEV_TH_RUNNING, 10, CLI);
    block(s, 20, CLI, 7, HOLD);
    th(s, KEV_TH_RUNNING, 20, HOLD);
    unlock(s, 300, 7);
    th(s, KEV_TH_READY, 300, SRV);
    th(s, KEV_TH_RUNNING, 300, SRV);
    unlock(s, 420, 7);
    th(s, KEV_TH_READY, 420, CLI);
    th(s, KEV_TH_RECEIVE, 430, SRV);
    th(s, KEV_TH_RUNNING, 430, CLI);
    kx_stats_finish(s);
    int cli = idx(s, CLI), srv = idx(s, SRV), hold = idx(s, HOLD);
    const struct kx_cwait *w = &s->chains->waiter[cli]->worst;
    assert_int_equal(w->t1 - w->t0, 400);
    assert_int_equal(root_t(w, hold), 280);
    assert_int_equal(root_t(w, srv), 120);
    assert_int_equal(pair_t(s, srv, hold), 290);
    done(s);
}

// CLI sends to SRV at 100; SRV takes it and blocks at 150 on mutex 7, which CLI holds: a
// cycle through a message and a mutex, closed by SRV; SRV's wait times out at 900.
static void test_deadlock_through_a_message(void **state)
{
    (void)state;
    struct kx_stats *s = stats_with_rows();
    th(s, KEV_TH_RUNNING, 0, CLI);
    th(s, KEV_TH_RECEIVE, 0, SRV);
    comm(s, KEV_COMM_SND_MESSAGE, 100, 0x108, SRV);
    comm(s, KEV_COMM_REC_MESSAGE, 100, 0x108, SRV << 16 | 1u);
    th(s, KEV_TH_READY, 100, SRV);
    th(s, KEV_TH_REPLY, 100, CLI);
    th(s, KEV_TH_RUNNING, 100, SRV);
    block(s, 150, SRV, 7, CLI);
    th(s, KEV_TH_READY, 900, SRV);                            // its timeout, in an interrupt
    th(s, KEV_TH_RUNNING, 900, SRV);
    kx_stats_finish(s);
    int cli = idx(s, CLI), srv = idx(s, SRV);
    const struct kx_chains *c = s->chains;
    assert_int_equal(c->ndl, 1);
    assert_int_equal(c->dl[0].n, 2);
    assert_int_equal(c->dl[0].th[0], srv);                   // the thread that closed it
    assert_int_equal(c->dl[0].link[0].kind, KX_LINK_MUTEX);
    assert_int_equal(c->dl[0].th[1], cli);
    assert_int_equal(c->dl[0].link[1].kind, KX_LINK_REPLY);
    assert_int_equal(c->dl[0].t, 150);
    assert_int_equal(c->dl[0].broken_t, 900);
    const struct kx_cwait *w = &c->waiter[srv]->worst;
    assert_int_equal(w->cycle, 1);
    assert_int_equal(root_t(w, -1), 750);                     // no root: the cycle's
    // the client still waits at the end: its wait open, to the end of the trace
    const struct kx_cwaiter *x = c->waiter[cli];
    assert_int_equal(x->worst.t1, 0);
    assert_int_equal(x->worst_len, 800);
    assert_int_equal(root_t(&x->worst, srv), 50);             // SRV ran 100..150
    assert_int_equal(root_t(&x->worst, -1), 750);
    done(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_send_server_mutex_holder),
        cmocka_unit_test(test_wait_on_input_goes_to_the_input),
        cmocka_unit_test(test_send_to_a_busy_server),
        cmocka_unit_test(test_condvar_given_its_signaller),
        cmocka_unit_test(test_mutex_handed_on),
        cmocka_unit_test(test_deadlock_through_a_message),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
