// SPDX-License-Identifier: MIT
// CPU load over time in buckets that grow with the trace (kx_load.h).
#include <kevhost/kx_load.h>

#include <string.h>

void kx_load_init(struct kx_load *l, uint64_t t0, uint64_t width)
{
    memset(l, 0, sizeof(*l));
    l->t0 = t0;
    l->width = width ? width : 1;
}

// Twice the width: bucket i of the new layout is buckets 2i and 2i + 1 of the old.
static void widen(struct kx_load *l)
{
    for (unsigned c = 0; c < l->ncpu; c++)
        for (unsigned i = 0; i < KX_LOAD_N; i++)
            l->busy[c][i] = i < KX_LOAD_N / 2 ? l->busy[c][2 * i] + l->busy[c][2 * i + 1] : 0;
    l->width *= 2;
}

void kx_load_add(struct kx_load *l, unsigned cpu, uint64_t a, uint64_t b)
{
    if (cpu >= KEV_MAX_CPUS || b <= a || a < l->t0)
        return;
    if (cpu >= l->ncpu)
        l->ncpu = cpu + 1;
    while ((b - l->t0 - 1) / l->width >= KX_LOAD_N)
        widen(l);
    for (uint64_t i = (a - l->t0) / l->width; a < b; i++) {
        uint64_t end = l->t0 + (i + 1) * l->width;
        uint64_t to = end < b ? end : b;
        l->busy[cpu][i] += to - a;
        a = to;
    }
}

unsigned kx_load_count(const struct kx_load *l, uint64_t t)
{
    if (t <= l->t0)
        return 0;
    uint64_t n = (t - l->t0 + l->width - 1) / l->width;
    return n < KX_LOAD_N ? (unsigned)n : KX_LOAD_N;
}
