// SPDX-License-Identifier: MIT
// Function calls paired from fbt's FUNC_ENTER and FUNC_EXIT events (kx_funcs.h): a stack of
// open calls per CPU, a table of functions by address.
#include "kx_funcs.h"
#include "kx.h"

#include <stdlib.h>
#include <string.h>

struct open_call {
    uint64_t fn, t0;
    int th;
};

struct call_stack {
    struct open_call c[KX_FUNC_DEPTH];
    unsigned n;
};

struct kx_funcs {
    struct call_stack *stack[KEV_MAX_CPUS];        // by CPU
    struct kx_func_stats *fn;
    unsigned nfn, cap;
    int32_t *hash;                                 // function index + 1, 0 empty; 2 * cap slots
    uint64_t dropped;
};

struct kx_funcs *kx_funcs_new(void)
{
    return calloc(1, sizeof(struct kx_funcs));
}

void kx_funcs_free(struct kx_funcs *f)
{
    if (!f)
        return;
    for (unsigned i = 0; i < KEV_MAX_CPUS; i++)
        free(f->stack[i]);
    free(f->fn);
    free(f->hash);
    free(f);
}

static unsigned slot_of(uint64_t fn, unsigned nslots)
{
    return (unsigned)((fn * 0x9e3779b97f4a7c15ull) >> 32) & (nslots - 1u);
}

// The function's entry in the table, added when new; NULL when there is no room.
static struct kx_func_stats *func(struct kx_funcs *f, uint64_t fn)
{
    if (f->cap) {
        for (unsigned h = slot_of(fn, 2u * f->cap); f->hash[h]; h = (h + 1u) & (2u * f->cap - 1u))
            if (f->fn[f->hash[h] - 1].fn == fn)
                return &f->fn[f->hash[h] - 1];
    }
    if (f->nfn == f->cap) { // grow: twice the room, the hash rebuilt
        unsigned cap = f->cap ? 2u * f->cap : 64u;
        struct kx_func_stats *t = realloc(f->fn, cap * sizeof(*t));
        int32_t *h = calloc(2u * cap, sizeof(*h));
        if (!t || !h) {
            if (t)
                f->fn = t;
            free(h);
            return NULL;
        }
        f->fn = t;
        free(f->hash);
        f->hash = h;
        f->cap = cap;
        for (unsigned i = 0; i < f->nfn; i++) {
            unsigned s = slot_of(f->fn[i].fn, 2u * cap);
            while (h[s])
                s = (s + 1u) & (2u * cap - 1u);
            h[s] = (int32_t)i + 1;
        }
    }
    unsigned s = slot_of(fn, 2u * f->cap);
    while (f->hash[s])
        s = (s + 1u) & (2u * f->cap - 1u);
    f->fn[f->nfn] = (struct kx_func_stats){ .fn = fn };
    f->hash[s] = (int32_t)++f->nfn;
    return &f->fn[f->nfn - 1];
}

static struct call_stack *stack_of(struct kx_funcs *f, unsigned cpu)
{
    if (cpu >= KEV_MAX_CPUS)
        return NULL;
    if (!f->stack[cpu])
        f->stack[cpu] = calloc(1, sizeof(struct call_stack));
    return f->stack[cpu];
}

void kx_funcs_event(struct kx_funcs *f, const struct kev_event *e, int th, const struct kx_sink *k)
{
    if (e->cls != KEV_C_SYSTEM || e->nw < 2 ||
        (e->ev != KEV_SYS_FUNC_ENTER && e->ev != KEV_SYS_FUNC_EXIT))
        return;
    struct kx_func_stats *s = func(f, e->w[0]);
    struct call_stack *st = stack_of(f, e->cpu);
    if (!s || !st) {
        f->dropped++;
        return;
    }
    if (e->ev == KEV_SYS_FUNC_ENTER) {
        s->entries++;
        if (st->n == KX_FUNC_DEPTH) { // the oldest open call gives way
            memmove(&st->c[0], &st->c[1], (KX_FUNC_DEPTH - 1u) * sizeof(st->c[0]));
            st->n--;
            f->dropped++;
        }
        st->c[st->n++] = (struct open_call){ e->w[0], e->t64, th };
        return;
    }
    s->returns++;
    unsigned i = st->n;
    while (i > 0 && st->c[i - 1].fn != e->w[0])
        i--;
    if (i == 0) // not entered on this CPU's stack: counted, not timed
        return;
    uint64_t t0 = st->c[i - 1].t0, d = e->t64 - t0;
    int th_in = st->c[i - 1].th;
    st->n = i - 1; // the call and any left open above it end here
    s->timed++;
    s->total += d;
    if (d > s->max)
        s->max = d;
    if (k && k->func) {
        struct kx_func_row r = {
            .t0 = t0, .t1 = e->t64, .th = th_in, .cpu = e->cpu, .fn = e->w[0], .call_site = e->w[1],
            .ret_off = e->nw > 2 ? e->w[2] : 0,
            .value = (e->nw > 3 ? e->w[3] : 0) | (e->nw > 4 ? (uint64_t)e->w[4] << 32 : 0),
            .depth = st->n,
        };
        k->func(k->user, &r);
    }
}

const struct kx_func_stats *kx_funcs_table(const struct kx_funcs *f, unsigned *n)
{
    *n = f ? f->nfn : 0;
    return f ? f->fn : NULL;
}

uint64_t kx_funcs_dropped(const struct kx_funcs *f)
{
    return f ? f->dropped : 0;
}
