// SPDX-License-Identifier: MIT
// User timers' expiries and intervals (kx_timer.h). Invariant: the last entry of a (pid, id,
// chan) is the timer's current arming; an arming starts an entry once the one before has
// expiries (an arming before any expiry only sets the interval).
#include <kevhost/kx_timer.h>
#include <kevhost/kx_msg.h>
#include <kevhost/tool_grow.h>

#include <stdlib.h>
#include <string.h>

void kx_timers_free(struct kx_timers *x)
{
    for (size_t i = 0; i < x->n; i++)
        free(x->t[i].gap);
    free(x->t);
    memset(x, 0, sizeof(*x));
}

// The current entry of (pid, id, chan), -1 none.
static long find(const struct kx_timers *x, uint32_t pid, uint32_t id, uint32_t chan)
{
    for (size_t i = x->n; i-- > 0;)
        if (x->t[i].pid == pid && x->t[i].id == id && x->t[i].chan == chan)
            return (long)i;
    return -1;
}

static long add(struct kx_timers *x, uint32_t pid, uint32_t id, uint32_t chan)
{
    if (tool_grow(&x->t, &x->cap, x->n + 1, sizeof(*x->t), 8))
        return -1;
    struct kx_timer *t = &x->t[x->n];
    memset(t, 0, sizeof(*t));
    t->pid = pid, t->id = id, t->chan = chan;
    return (long)x->n++;
}

unsigned kx_timers_expiry(struct kx_timers *x, uint32_t pid, uint32_t id, uint32_t chan,
                          uint64_t t)
{
    if (id != KX_TIMER_UNNAMED)
        chan = 0;
    long i = find(x, pid, id, chan);
    if (i < 0 && (i = add(x, pid, id, chan)) < 0) {
        x->lost++;
        return 0;
    }
    struct kx_timer *e = &x->t[i];
    if (e->n && t >= e->last) {
        if (tool_grow(&e->gap, &e->gap_cap, e->ngap + 1, sizeof(*e->gap), 64))
            x->lost++;
        else
            e->gap[e->ngap++] = t - e->last;
    }
    if (!e->n)
        e->first = t;
    e->last = t;
    e->n++;
    return (unsigned)i + 1u;
}

void kx_timers_armed(struct kx_timers *x, uint32_t pid, uint32_t id, uint32_t interval_us)
{
    long i = find(x, pid, id, 0);
    if (i < 0 || x->t[i].n)
        i = add(x, pid, id, 0);
    if (i < 0) {
        x->lost++;
        return;
    }
    x->t[i].interval_us = interval_us;
}

const struct kx_timer *kx_timers_get(const struct kx_timers *x, unsigned e)
{
    return x && e && e <= x->n ? &x->t[e - 1] : NULL;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t p = *(const uint64_t *)a, q = *(const uint64_t *)b;
    return p < q ? -1 : p > q;
}

uint64_t kx_timers_interval(const struct kx_timers *x, unsigned e, uint64_t cps, int recent)
{
    const struct kx_timer *t = kx_timers_get(x, e);
    if (!t)
        return 0;
    if (t->interval_us)
        return (uint64_t)((double)t->interval_us * (double)cps / 1e6 + 0.5);
    size_t from = recent && t->ngap > KX_TIMER_RECENT ? t->ngap - KX_TIMER_RECENT : 0;
    size_t n = t->ngap - from;
    if (!n)
        return 0;
    uint64_t *g = malloc(n * sizeof(*g));
    if (!g)
        return 0;
    memcpy(g, t->gap + from, n * sizeof(*g));
    qsort(g, n, sizeof(*g), cmp_u64);
    uint64_t med = g[(n - 1) / 2];
    free(g);
    if (recent || !med)
        return med;
    // the span's whole number of intervals (lost and skipped expiries are whole intervals)
    uint64_t span = t->last - t->first, k = (span + med / 2) / med;
    return k ? (span + k / 2) / k : med;
}
