// SPDX-License-Identifier: MIT
// The one model pass (tools/analysis/kx_pass.c) over two boards' captures (an mps2-an385's,
// test/tools/data/stackchain-mps2.kev, and traceprinter's golden one, 92 switches): every event reaches the tool once, in time
// order, with the model as it was before the event (its last time the previous event's) and,
// in the after-callback, as the event left it (its last time the event's; a RUNNING event's
// thread, by the event's own pid and tid, the one running on the event's CPU); the statistics
// as the model (kx_stats_model) see the same; a callback that stops the pass gets no event more.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include <kevhost/kx_fields.h>
#include <kevhost/kx_pass.h>
#include <kevhost/kx_stats.h>

static const char *const captures[] = { "test/tools/data/stackchain-mps2.kev",
                                        "tools/traceprinter/golden/pre-2026-11.kev" };

struct seen {
    uint64_t events, afters, controls, running, stop_at;
    uint64_t prev_t;       // the last non-control event's time, 0 before the first
    int bad_before, bad_after, bad_running;
};

static int before(void *user, const struct kev_reader *r, const struct kev_event *e,
                  struct kx_model *m)
{
    struct seen *s = user;
    (void)r, (void)e;
    s->events++;
    if (s->prev_t ? !m->have_t || m->last_t != s->prev_t : m->have_t)
        s->bad_before++;
    return s->stop_at && s->events == s->stop_at;
}

static void after(void *user, const struct kev_reader *r, const struct kev_event *e,
                  struct kx_model *m)
{
    struct seen *s = user;
    (void)r;
    s->afters++;
    s->controls += e->cls == KEV_C_CONTROL;
    if (e->cls != KEV_C_CONTROL) {
        if (!m->have_t || m->last_t != e->t64)
            s->bad_after++;
        s->prev_t = e->t64;
    }
    if (e->cls == KEV_C_PR_TH && e->ev == KEV_TH_RUNNING && e->nw >= 2 && !m->in_snapshot) {
        int th = m->cur[e->cpu];
        s->running++;
        if (th < 0 || m->th[th].pid != kx_th_pid(e) || m->th[th].tid != kx_th_tid(e))
            s->bad_running++;
    }
}

static uint64_t count;
static int count_cb(void *user, struct kev_reader *r, const struct kev_event *e)
{
    (void)user, (void)r, (void)e;
    count++;
    return 0;
}

// The capture's events, counted by the decoder alone.
static uint64_t events_of(const char *path)
{
    struct kx_file f;
    assert_int_equal(kx_open("test_kx_pass", path, &f), 0);
    count = 0;
    assert_int_equal(kx_decode_sorted("test_kx_pass", &f, count_cb, NULL), 0);
    kx_close(&f);
    return count;
}

static void model_pass(void **state)
{
    (void)state;
    uint64_t running = 0;
    for (unsigned k = 0; k < 2; k++) {
        uint64_t n = events_of(captures[k]);
        assert_true(n > 200);
        static struct kx_model m;
        struct kx_file f;
        struct seen s = { 0 };
        assert_int_equal(kx_open("test_kx_pass", captures[k], &f), 0);
        kx_model_init(&m, f.r);
        struct kx_pass p = { .m = &m, .on_event = before, .after = after, .user = &s };
        assert_int_equal(kx_pass_run("test_kx_pass", &f, &p), 0);
        kx_close(&f);
        assert_int_equal(s.events, n);
        assert_int_equal(s.afters, n);
        assert_int_equal(s.bad_before, 0);
        assert_int_equal(s.bad_after, 0);
        assert_int_equal(s.bad_running, 0);
        running += s.running;
    }
    assert_true(running >= 90);
}

static void stats_pass(void **state)
{
    (void)state;
    struct kx_file f;
    struct seen s = { 0 };
    uint64_t n = events_of(captures[1]);
    assert_int_equal(kx_open("test_kx_pass", captures[1], &f), 0);
    struct kx_stats *st = kx_stats_new(f.r);
    assert_non_null(st);
    struct kx_pass p = { .on_event = before, .after = after, .user = &s };
    kx_stats_model(&p, st);
    assert_ptr_equal(p.m, &st->m);
    assert_int_equal(kx_pass_run("test_kx_pass", &f, &p), 0);
    kx_stats_finish(st);
    assert_int_equal(s.events, n);
    assert_int_equal(st->events, n - s.controls); // the analyses took each (CONTROL apart)
    assert_int_equal(s.bad_before + s.bad_after + s.bad_running, 0);
    kx_stats_delete(st);
    kx_close(&f);
}

static void stop(void **state)
{
    (void)state;
    struct kx_file f;
    static struct kx_model m;
    struct seen s = { .stop_at = 10 };
    assert_int_equal(kx_open("test_kx_pass", captures[1], &f), 0);
    kx_model_init(&m, f.r);
    struct kx_pass p = { .m = &m, .on_event = before, .after = after, .user = &s };
    assert_int_equal(kx_pass_run("test_kx_pass", &f, &p), 1);
    kx_close(&f);
    assert_int_equal(s.events, 10);
    assert_int_equal(s.afters, 10);  // the stopping event still reached the model
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(model_pass), cmocka_unit_test(stats_pass), cmocka_unit_test(stop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
