// SPDX-License-Identifier: MIT
// Each thread's runs with their executed share (ctf_exec.h), from the analysis model's state
// records: a thread by (pid, tid) in an open-addressed table, its runs in time order (the model
// ends them in time order), found by a binary search on their end.
#include "ctf_exec.h"

#include <stdlib.h>
#include <string.h>
#include <kevhost/kx_pass.h>
#include <kevhost/tool_grow.h>
#include <kevhost/kx_stats.h>

struct run {
    uint64_t t1, exec;
};

struct runs {
    uint64_t key;            // pid << 32 | tid, + 1 (0: a free slot)
    struct run *v;
    size_t n, cap;
};

struct ctf_exec {
    struct kx_stats *s;
    struct kev_reader *own_r;  // ctf_exec_file's reader
    unsigned keep;
    struct runs th[KX_HASH];
};

static struct runs *runs_of(struct ctf_exec *x, uint32_t pid, uint32_t tid, int add)
{
    uint64_t key = ((uint64_t)pid << 32 | tid) + 1;
    for (unsigned i = (unsigned)(key * 0x9e3779b97f4a7c15ull >> 51) % KX_HASH, k = 0; k < KX_HASH;
         k++, i = (i + 1) % KX_HASH) {
        if (x->th[i].key == key)
            return &x->th[i];
        if (!x->th[i].key) {
            if (!add)
                return NULL;
            x->th[i].key = key;
            return &x->th[i];
        }
    }
    return NULL;
}

// A run ended (the model's state record of a RUNNING interval).
static void on_state(void *user, const struct kx_state_row *r)
{
    struct ctf_exec *x = user;
    if (r->state != KEV_TH_RUNNING || r->th < 0)
        return;
    struct runs *g = runs_of(x, x->s->m.th[r->th].pid, x->s->m.th[r->th].tid, 1);
    if (!g)
        return;
    if (x->keep && g->n >= 2u * x->keep) { // (a live reader's: the last runs only)
        memmove(g->v, g->v + g->n - x->keep, x->keep * sizeof(*g->v));
        g->n = x->keep;
    }
    if (tool_grow(&g->v, &g->cap, g->n + 1, sizeof(*g->v), 16))
        return;
    g->v[g->n++] = (struct run){ r->t1, r->exec };
}

struct ctf_exec *ctf_exec_new(const struct kev_reader *r, unsigned keep)
{
    struct ctf_exec *x = calloc(1, sizeof(*x));
    if (!x || !(x->s = kx_stats_new(r))) {
        free(x);
        return NULL;
    }
    x->keep = keep;
    x->s->skip = KX_SKIP_MSG | KX_SKIP_WAIT; // (the runs need neither)
    kx_stats_sink(x->s, &(struct kx_sink){ .user = x, .state = on_state });
    return x;
}

void ctf_exec_free(struct ctf_exec *x)
{
    if (!x)
        return;
    for (unsigned i = 0; i < KX_HASH; i++)
        free(x->th[i].v);
    kx_stats_delete(x->s);
    free(x->own_r);
    free(x);
}

void ctf_exec_event(struct ctf_exec *x, const struct kev_event *e)
{
    kx_stats_event(x->s, e);
}

struct ctf_exec *ctf_exec_file(const struct kx_file *f)
{
    struct kev_reader *r = malloc(sizeof(*r)); // (a reader of its own: the encoder's is unread)
    if (!r || kev_open(r, f->data, f->len)) {
        free(r);
        return NULL;
    }
    struct ctf_exec *x = ctf_exec_new(r, 0);
    struct kx_src *src = x ? kx_src_new(r) : NULL;
    if (!src) {
        ctf_exec_free(x), free(r);
        return NULL;
    }
    x->own_r = r;
    struct kx_pass p = { 0 };
    kx_stats_model(&p, x->s);
    struct kev_event e;
    int rc;
    while ((rc = kx_src_next(src, &e)) == 1)
        kx_pass_step(&p, r, &e);
    kx_src_free(src);
    kx_stats_finish(x->s);
    if (rc == -1) { // out of memory; a damaged file's runs up to the damage are kept (the
        ctf_exec_free(x); // encoder's own pass says where it is)
        return NULL;
    }
    return x;
}

uint64_t ctf_exec_run(const struct ctf_exec *x, uint32_t pid, uint32_t tid, uint64_t t)
{
    const struct runs *g = runs_of((struct ctf_exec *)x, pid, tid, 0);
    if (!g || !g->n || g->v[0].t1 > t)
        return 0;
    size_t lo = 0, hi = g->n; // the last run with t1 <= t: in [lo, hi)
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (g->v[mid].t1 <= t)
            lo = mid;
        else
            hi = mid;
    }
    return g->v[lo].exec;
}
