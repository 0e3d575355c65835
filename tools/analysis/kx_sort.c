// SPDX-License-Identifier: MIT
// Time-ordered events for traces of several CPUs (kx.h: kx_src_* and kx_decode_sorted). The
// decoder gives a sound file's events in time order already (kev_next merges the CPUs); a
// damaged one it reads in file order, up to the damage: buffer after buffer, each CPU's events
// in time order, but a CPU's buffer may come long before another CPU's earlier events. Events
// are held in a min-heap on (time, arrival) and released once no CPU can still deliver an
// earlier one: the trailer's per-CPU event counts say which CPUs have events to come, and a
// CPU's next event is never earlier than its last. A CPU that has not delivered yet holds
// everything back; KX_SORT_MAX bounds what is held (past it the oldest is released anyway, so
// order is then only approximate). One CPU: events go straight through.
// kx_src pulls (one event per call: kevsql's cursors); kx_decode_sorted pushes (the callback of
// kevstat, kevreport, kev2json, kev2perfetto): both through the same heap. The heap is made only
// for a walk in file order (the decoder's time-ordered walk needs none), and grows as it fills.
#include <stdlib.h>
#include <string.h>

#include <kevhost/kx.h>

#define KX_SORT_MAX (1u << 18)
#define KX_INLINE_WORDS 4u

struct held {
    struct kev_event e;
    uint64_t seq;
    uint32_t inl[KX_INLINE_WORDS];
    uint32_t *big; // malloc'd words when more than KX_INLINE_WORDS
};

struct kx_src {
    struct kev_reader *r;
    int sorting;                  // several CPUs in file order: through the heap
    int decided;                  // the first event told whether the decoder merges itself
    unsigned cap;                 // the heap's room (grows to KX_SORT_MAX)
    int done;                     // the decoder has given its last event (or its error)
    int rc;                       // kev_next's last result: 0 end, or the error
    struct held *pool;
    unsigned *heap, *freel;
    unsigned n, nfree;
    uint64_t seq;
    uint64_t last[KEV_MAX_CPUS], got[KEV_MAX_CPUS], want[KEV_MAX_CPUS];
    uint8_t active[KEV_MAX_CPUS]; // may still deliver events
    unsigned ncpu;
    uint32_t out[2u * KEV_MAX_COMBINE_SLOTS]; // the words of the event last given
};

static int before(const struct kx_src *s, unsigned a, unsigned b)
{
    const struct held *x = &s->pool[a], *y = &s->pool[b];
    return x->e.t64 < y->e.t64 || (x->e.t64 == y->e.t64 && x->seq < y->seq);
}

static void push(struct kx_src *s, unsigned idx)
{
    unsigned i = s->n++;
    s->heap[i] = idx;
    while (i && before(s, s->heap[i], s->heap[(i - 1) / 2])) {
        unsigned p = (i - 1) / 2, t = s->heap[p];
        s->heap[p] = s->heap[i], s->heap[i] = t, i = p;
    }
}

static unsigned pop(struct kx_src *s)
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

// The earliest held event into *e (its words copied to s->out), its slot freed.
static void take(struct kx_src *s, struct kev_event *e)
{
    unsigned idx = pop(s);
    struct held *h = &s->pool[idx];
    *e = h->e;
    memcpy(s->out, h->e.w, h->e.nw * sizeof(uint32_t));
    e->w = s->out;
    free(h->big);
    h->big = NULL;
    s->freel[s->nfree++] = idx;
}

// Earliest time a CPU with events to come may still deliver; UINT64_MAX when none can.
static uint64_t watermark(const struct kx_src *s)
{
    uint64_t w = UINT64_MAX;
    for (unsigned c = 0; c < s->ncpu; c++)
        if (s->active[c] && s->last[c] < w)
            w = s->last[c];
    return w;
}

// Room for more held events: the pool, heap and free list doubled (up to KX_SORT_MAX).
static int grow(struct kx_src *s)
{
    unsigned cap = s->cap ? 2 * s->cap : 4096;
    if (cap > KX_SORT_MAX)
        cap = KX_SORT_MAX;
    struct held *pool = realloc(s->pool, cap * sizeof(*pool));
    if (pool)
        s->pool = pool;
    unsigned *heap = realloc(s->heap, cap * sizeof(*heap));
    if (heap)
        s->heap = heap;
    unsigned *freel = realloc(s->freel, cap * sizeof(*freel));
    if (freel)
        s->freel = freel;
    if (!pool || !heap || !freel)
        return -1;
    for (unsigned i = cap; i > s->cap; i--) { // the new slots, the lowest taken first
        s->pool[i - 1].big = NULL;
        s->freel[s->nfree++] = i - 1;
    }
    s->cap = cap;
    return 0;
}

// Hold e (words copied). -1 out of memory.
static int hold(struct kx_src *s, const struct kev_event *e)
{
    unsigned idx = s->freel[--s->nfree];
    struct held *h = &s->pool[idx];
    h->e = *e;
    h->seq = s->seq++;
    uint32_t *w = h->inl;
    if (e->nw > KX_INLINE_WORDS) {
        h->big = malloc(e->nw * sizeof(uint32_t));
        if (!h->big) {
            s->freel[s->nfree++] = idx;
            return -1;
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
    return 0;
}

struct kx_src *kx_src_new(struct kev_reader *r)
{
    struct kx_src *s = calloc(1, sizeof(*s));
    if (!s)
        return NULL;
    s->r = r;
    unsigned ncpu = r->kr_have_trailer ? r->kr_trl_ncpu : 0;
    if (ncpu <= 1 || ncpu > KEV_MAX_CPUS)
        return s;
    s->sorting = 1;
    s->ncpu = ncpu;
    for (unsigned c = 0; c < ncpu; c++) {
        s->want[c] = r->kr_trl_events[c];
        s->active[c] = s->want[c] != 0;
    }
    return s;
}

void kx_src_free(struct kx_src *s)
{
    if (!s)
        return;
    for (unsigned i = 0; s->pool && i < s->cap; i++)
        free(s->pool[i].big);
    free(s->pool), free(s->heap), free(s->freel);
    free(s);
}

int kx_src_next(struct kx_src *s, struct kev_event *e)
{
    if (s->sorting && !s->decided) {
        // the decoder merges a sound file's CPUs itself (kev_decode.h): no heap then
        int rc = kev_next(s->r, e);
        s->decided = 1;
        if (rc != 1 || s->r->kr_merging) {
            s->sorting = 0;
            return rc;
        }
        if (grow(s) || hold(s, e))
            return -1;
    }
    if (!s->sorting)
        return kev_next(s->r, e);
    while (!s->done) {
        if (s->n && s->pool[s->heap[0]].e.t64 <= watermark(s)) {
            take(s, e);
            return 1;
        }
        if (s->nfree == 0 && (s->cap == KX_SORT_MAX || grow(s))) {
            take(s, e); // full: the oldest goes, order approximate from here
            return 1;
        }
        struct kev_event in;
        int rc = kev_next(s->r, &in);
        if (rc != 1) {
            s->done = 1;
            s->rc = rc;
            break;
        }
        if (hold(s, &in) < 0) {
            s->done = 1;
            s->rc = -1;
        }
    }
    if (s->n) { // the decoder is done: what is held goes out in order
        take(s, e);
        return 1;
    }
    return s->rc;
}

int kx_decode_sorted(const char *tool, struct kx_file *f, kev_cb cb, void *user)
{
    struct kev_reader *r = f->r;
    unsigned ncpu = r->kr_have_trailer ? r->kr_trl_ncpu : 0;
    if (ncpu <= 1 || ncpu > KEV_MAX_CPUS)
        return kx_decode(tool, f, cb, user);
    struct kx_src *s = kx_src_new(r);
    if (!s) {
        fprintf(stderr, "%s: out of memory\n", tool);
        return 1;
    }
    struct kev_event e;
    int rc, stopped = 0;
    while ((rc = kx_src_next(s, &e)) == 1)
        if (!stopped && cb(user, r, &e))
            stopped = 1;
    kx_src_free(s);
    if (rc == -1) {
        fprintf(stderr, "%s: out of memory\n", tool);
        return 1;
    }
    if (rc) {
        fprintf(stderr, "%s: %s\n", tool, kev_error(r));
        return 1;
    }
    return stopped;
}
