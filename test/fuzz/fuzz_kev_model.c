// SPDX-License-Identifier: MIT
// libFuzzer target for the analysis model as kevsql's tables run it (tools/analysis/): any byte
// string is walked in time order (kx_src: the decoder's pull walk, and the heap for a file of
// several CPUs read in file order) through kx_stats with every record given to a sink that reads
// each field, then finished: no crash, no read out of bounds, no loop, whatever the damage. The
// decoder alone has fuzz_kev_decode; seeds are the same small kevgen traces, and a two-CPU one.
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <kevhost/kx_stats.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t sum;

static void on_state(void *u, const struct kx_state_row *r)
{
    (void)u;
    sum += r->t1 - r->t0 + r->state + (unsigned)r->cpu + (unsigned)r->waker + r->wait;
}
static void on_kcall(void *u, const struct kx_kcall_row *r)
{
    (void)u;
    sum += r->t1 + r->call + r->arg[3] + r->err;
}
static void on_irq(void *u, const struct kx_irq_row *r)
{
    (void)u;
    sum += r->t_th + r->h1 + r->irq + (unsigned)r->th;
}
static void on_msg(void *u, const struct kx_msg *g)
{
    (void)u;
    sum += g->t_reply + g->t_recv + g->rcvid;
}
static void on_wait(void *u, const struct kw_wait *w)
{
    (void)u;
    sum += w->t1 + w->inv_t + w->npre;
    for (unsigned i = 0; i < w->npre; i++)
        sum += w->pre[i].t;
}
static void on_cpu(void *u, unsigned cpu, uint64_t t0, uint64_t t1, int th, unsigned what)
{
    (void)u;
    sum += cpu + t1 - t0 + (unsigned)th + what;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct kev_reader r;
    static struct kx_stats s;
    if (kev_open(&r, data, size))
        return 0;
    struct kx_src *src = kx_src_new(&r);
    if (!src)
        return 0;
    kx_stats_init(&s, &r);
    kx_stats_sink(&s, &(struct kx_sink){ .state = on_state, .kcall = on_kcall, .irq = on_irq,
                                         .msg = on_msg, .wait = on_wait, .cpu = on_cpu });
    struct kev_event e;
    while (kx_src_next(src, &e) == 1)
        kx_stats_event(&s, &e);
    kx_stats_finish(&s);
    char buf[KX_USER_VALUE];
    for (unsigned i = 0; i < s.nuser; i++)
        kx_user_last(&s, &s.user[i], buf, sizeof(buf));
    kx_stats_free(&s);
    kx_src_free(src);
    return 0;
}
