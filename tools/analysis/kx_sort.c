// SPDX-License-Identifier: MIT
// Time-ordered delivery for traces of several CPUs (kx_decode_sorted in kx.h). The decoder
// delivers events in file order: buffer after buffer, each CPU's events in time order, but a
// CPU's buffer may come long before another CPU's earlier events. Events are held in a
// min-heap on (time, arrival) and released once no CPU can still deliver an earlier one:
// the trailer's per-CPU event counts say which CPUs have events to come, and a CPU's next
// event is never earlier than its last. A CPU that has not delivered yet holds everything
// back; KX_SORT_MAX bounds what is held (past it the oldest is released anyway, so order is
// then only approximate). One CPU: events go straight through.
#include <stdlib.h>
#include <string.h>

#include "kx.h"

#define KX_SORT_MAX (1u << 18)
#define KX_INLINE_WORDS 4u

struct held {
    struct kev_event e;
    uint64_t seq;
    uint32_t inl[KX_INLINE_WORDS];
    uint32_t *big; // malloc'd words when more than KX_INLINE_WORDS
};

struct sorter {
    struct held *pool;
    unsigned *heap, *freel;
    unsigned n, nfree;
    uint64_t seq;
    uint64_t last[KEV_MAX_CPUS], got[KEV_MAX_CPUS], want[KEV_MAX_CPUS];
    uint8_t active[KEV_MAX_CPUS]; // may still deliver events
    unsigned ncpu;
    kev_cb cb;
    void *user;
    int stop;
};

static int before(const struct sorter *s, unsigned a, unsigned b)
{
    const struct held *x = &s->pool[a], *y = &s->pool[b];
    return x->e.t64 < y->e.t64 || (x->e.t64 == y->e.t64 && x->seq < y->seq);
}

static void push(struct sorter *s, unsigned idx)
{
    unsigned i = s->n++;
    s->heap[i] = idx;
    while (i && before(s, s->heap[i], s->heap[(i - 1) / 2])) {
        unsigned p = (i - 1) / 2, t = s->heap[p];
        s->heap[p] = s->heap[i], s->heap[i] = t, i = p;
    }
}

static unsigned pop(struct sorter *s)
{
    unsigned top = s->heap[0], i = 0;
    s->heap[0] = s->heap[--s->n];
    for (;;) {
        unsigned l = 2 * i + 1, r = l + 1, m = i;
        if (l < s->n && before(s, s->heap[l], s->heap[m]))
            m = l;
        if (r < s->n && before(s, s->heap[r], s->heap[m]))
            m = r;
        if (m == i)
            break;
        unsigned t = s->heap[m];
        s->heap[m] = s->heap[i], s->heap[i] = t, i = m;
    }
    return top;
}

static void release(struct sorter *s, struct kev_reader *r)
{
    unsigned idx = pop(s);
    struct held *h = &s->pool[idx];
    if (!s->stop && s->cb(s->user, r, &h->e))
        s->stop = 1;
    free(h->big);
    h->big = NULL;
    s->freel[s->nfree++] = idx;
}

// Earliest time a CPU with events to come may still deliver; UINT64_MAX when none can.
static uint64_t watermark(const struct sorter *s)
{
    uint64_t w = UINT64_MAX;
    for (unsigned c = 0; c < s->ncpu; c++)
        if (s->active[c] && s->last[c] < w)
            w = s->last[c];
    return w;
}

static int hold(void *user, struct kev_reader *r, const struct kev_event *e)
{
    struct sorter *s = user;
    if (s->nfree == 0)
        release(s, r);
    unsigned idx = s->freel[--s->nfree];
    struct held *h = &s->pool[idx];
    h->e = *e;
    h->seq = s->seq++;
    uint32_t *w = h->inl;
    if (e->nw > KX_INLINE_WORDS) {
        h->big = malloc(e->nw * sizeof(uint32_t));
        if (!h->big) {
            s->freel[s->nfree++] = idx;
            s->stop = 1;
            return 1;
        }
        w = h->big;
    }
    memcpy(w, e->w, e->nw * sizeof(uint32_t));
    h->e.w = w;
    push(s, idx);
    unsigned c = e->cpu;
    if (c < s->ncpu) {
        s->last[c] = e->t64;
        if (e->cls != KEV_C_CONTROL && s->want[c] && ++s->got[c] >= s->want[c])
            s->active[c] = 0;
    }
    uint64_t w_t = watermark(s);
    while (s->n && s->pool[s->heap[0]].e.t64 <= w_t && !s->stop)
        release(s, r);
    return s->stop;
}

int kx_decode_sorted(const char *tool, struct kx_file *f, kev_cb cb, void *user)
{
    struct kev_reader *r = f->r;
    unsigned ncpu = r->kr_have_trailer ? r->kr_trl_ncpu : 0;
    if (ncpu <= 1 || ncpu > KEV_MAX_CPUS)
        return kx_decode(tool, f, cb, user);
    struct sorter *s = calloc(1, sizeof(*s));
    if (s) {
        s->pool = calloc(KX_SORT_MAX, sizeof(*s->pool));
        s->heap = calloc(KX_SORT_MAX, sizeof(*s->heap));
        s->freel = calloc(KX_SORT_MAX, sizeof(*s->freel));
    }
    if (!s || !s->pool || !s->heap || !s->freel) {
        fprintf(stderr, "%s: out of memory\n", tool);
        if (s)
            free(s->pool), free(s->heap), free(s->freel);
        free(s);
        return 1;
    }
    s->ncpu = ncpu;
    s->cb = cb;
    s->user = user;
    for (unsigned i = 0; i < KX_SORT_MAX; i++)
        s->freel[i] = KX_SORT_MAX - 1 - i;
    s->nfree = KX_SORT_MAX;
    for (unsigned c = 0; c < ncpu; c++) {
        s->want[c] = r->kr_trl_events[c];
        s->active[c] = s->want[c] != 0;
    }
    int rc = kx_decode(tool, f, hold, s);
    while (s->n)
        release(s, r);
    if (!rc && s->stop && r->kr_err == KEV_ERR_STOPPED)
        rc = 1;
    free(s->pool), free(s->heap), free(s->freel);
    free(s);
    return rc;
}
