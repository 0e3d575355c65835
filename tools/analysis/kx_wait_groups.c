// SPDX-License-Identifier: MIT
// Who blocked whom, how long (kx_wait.h): the waits the analysis kept, grouped by waiter,
// object and holder, each group with the count, total and worst of its waits at or over the
// threshold (the user's, else each waiter's own: 1% of its period, at most the default), so a
// finding is a wait that cost something, not every handover of a lock.
#include <kevhost/kx_wait.h>

#include <stdlib.h>

static int by_total(const void *a, const void *b)
{
    const struct kw_group *x = a, *y = b;
    if (x->total != y->total)
        return x->total < y->total ? 1 : -1;
    return x->first_t0 < y->first_t0 ? -1 : x->first_t0 > y->first_t0;
}

uint64_t kw_threshold(const struct kw *k, int th, uint64_t min, uint64_t dflt)
{
    if (!dflt)
        return min;
    uint64_t p = kw_period(k, th) / 100;
    return p && p < dflt ? p : dflt;
}

size_t kw_wait_groups(const struct kw *k, uint64_t min, uint64_t dflt, struct kw_group **out,
                      uint64_t *under_all)
{
    struct kw_group *g = NULL;
    size_t n = 0, cap = 0;
    *out = NULL;
    *under_all = 0;
    for (size_t i = 0; i < k->ndone; i++) {
        const struct kw_done *d = &k->done[i];
        size_t j = 0;
        while (j < n && (g[j].waiter != d->th || g[j].obj != d->obj || g[j].owner != d->owner ||
                         g[j].state != d->state))
            j++;
        if (j == n) {
            if (n == cap) {
                size_t c = cap ? 2 * cap : 64;
                struct kw_group *ng = realloc(g, c * sizeof(*ng));
                if (!ng) {
                    free(g);
                    return 0;
                }
                g = ng, cap = c;
            }
            g[n++] = (struct kw_group){ .waiter = d->th, .obj = d->obj, .owner = d->owner,
                                        .state = d->state,
                                        .min = kw_threshold(k, d->th, min, dflt) };
        }
        struct kw_group *x = &g[j];
        uint64_t len = d->t1 - d->t0;
        if (len < x->min) {
            x->under++;
            (*under_all)++;
            continue;
        }
        if (!x->count++)
            x->first_t0 = d->t0;
        x->total += len;
        if (len > x->worst)
            x->worst = len, x->worst_t0 = d->t0, x->waiter_prio = d->prio,
            x->owner_prio = d->owner_prio;
    }
    size_t m = 0;
    for (size_t j = 0; j < n; j++)
        if (g[j].count)
            g[m++] = g[j];
    if (!m) {
        free(g);
        return 0;
    }
    qsort(g, m, sizeof(*g), by_total);
    *out = g;
    return m;
}
