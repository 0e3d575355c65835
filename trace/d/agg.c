// SPDX-License-Identifier: MIT
// Aggregation buffers: one hash table per CPU in aggsize bytes, entries appended and never
// moved (so a walk is a linear scan). An entry is (aggregation, key bytes) -> int64 values
// whose layout depends on the function:
//   count, sum, min, max: [v]     avg: [count, sum]     stddev: [count, sum, sumsq_hi, sumsq_lo]
//   quantize: DIF_QUANTIZE_NBUCKETS counts; lquantize: levels + 2; llquantize: see llq_*.
// Every function here is mergeable: the consumer combines CPUs entry by entry.
// When a table is full the update is dropped and counted (aggdrops); nothing else happens.
#include "dvm_impl.h"

struct aent {
    uint32_t next;  /* next entry in the bucket chain, offset + 1 */
    uint16_t agg;
    uint16_t flags; /* DVM_AGG_DELETED */
    uint32_t keylen;
    uint32_t hash;
    uint32_t sig;   /* key bytes with content; the rest of keylen is zero */
    uint32_t pad;
};

/* llquantize: magnitudes lo..hi of factor f, each split into linear steps. */
static int64_t ipow(int64_t f, int64_t e)
{
    int64_t v = 1;
    while (e-- > 0) {
        if (v > INT64_MAX / f)
            return INT64_MAX;
        v *= f;
    }
    return v;
}

static int64_t llq_step(const int64_t *a, int64_t m)
{
    int64_t s = ipow(a[0], m + 1) / a[3];
    return s < 1 ? 1 : s;
}

static unsigned llq_nbuckets(const int64_t *a)
{
    unsigned n = 2;
    for (int64_t m = a[1]; m <= a[2]; m++) {
        int64_t base = ipow(a[0], m), next = ipow(a[0], m + 1), step = llq_step(a, m);
        n += (unsigned)((next - base + step - 1) / step);
    }
    return n;
}

static unsigned llq_index(const int64_t *a, int64_t v)
{
    if (v < ipow(a[0], a[1]))
        return 0;
    unsigned k = 1;
    for (int64_t m = a[1]; m <= a[2]; m++) {
        int64_t base = ipow(a[0], m), next = ipow(a[0], m + 1), step = llq_step(a, m);
        if (v < next)
            return k + (unsigned)((v - base) / step);
        k += (unsigned)((next - base + step - 1) / step);
    }
    return k;
}

int64_t dvm_agg_bucket_value(const struct dif_agg *g, unsigned k)
{
    const int64_t *a = g->dg_param;
    switch (g->dg_func) {
    case DIF_AGG_QUANTIZE:
        if (k == DIF_QUANTIZE_ZERO)
            return 0;
        if (k > DIF_QUANTIZE_ZERO)
            return (int64_t)(1ull << (k - DIF_QUANTIZE_ZERO - 1));
        return -(int64_t)(1ull << (DIF_QUANTIZE_ZERO - 1 - k));
    case DIF_AGG_LQUANTIZE:
        if (k == 0)
            return a[0] - 1;
        return a[0] + (int64_t)(k - 1) * a[2];
    case DIF_AGG_LLQUANTIZE: {
        if (k == 0)
            return ipow(a[0], a[1]) - 1;
        unsigned j = 1;
        for (int64_t m = a[1]; m <= a[2]; m++) {
            int64_t base = ipow(a[0], m), next = ipow(a[0], m + 1), step = llq_step(a, m);
            unsigned n = (unsigned)((next - base + step - 1) / step);
            if (k < j + n)
                return base + (int64_t)(k - j) * step;
            j += n;
        }
        return ipow(a[0], a[2] + 1);
    }
    default:
        return 0;
    }
}

unsigned dvm_agg_nvals(const struct dif_agg *g)
{
    switch (g->dg_func) {
    case DIF_AGG_AVG: return 2;
    case DIF_AGG_STDDEV: return 4;
    case DIF_AGG_QUANTIZE: return DIF_QUANTIZE_NBUCKETS;
    case DIF_AGG_LQUANTIZE:
        return (unsigned)((g->dg_param[1] - g->dg_param[0]) / g->dg_param[2]) + 2u;
    case DIF_AGG_LLQUANTIZE: return llq_nbuckets(g->dg_param);
    default: return 1;
    }
}

static void init_vals(const struct dif_agg *g, int64_t *v, unsigned n)
{
    d_words_zero(v, n * 8u);
    if (g->dg_func == DIF_AGG_MIN)
        v[0] = INT64_MAX;
    if (g->dg_func == DIF_AGG_MAX)
        v[0] = INT64_MIN;
}

static unsigned quantize_index(int64_t v)
{
    if (v == 0)
        return DIF_QUANTIZE_ZERO;
    uint64_t m = v > 0 ? (uint64_t)v : 0 - (uint64_t)v;
    uint32_t hi = (uint32_t)(m >> 32);
    unsigned lg = hi ? 63u - (unsigned)__builtin_clz(hi)
                     : 31u - (unsigned)__builtin_clz((uint32_t)m);
    if (lg > 62) /* INT64_MIN (2^63) falls in the last bucket */
        lg = 62;
    return v > 0 ? DIF_QUANTIZE_ZERO + 1 + lg : DIF_QUANTIZE_ZERO - 1 - lg;
}

/* add_square: (hi:lo) += v*v, 128-bit, without a 128-bit type (32-bit targets lack one). */
static void add_square(uint64_t *hi, uint64_t *lo, int64_t v)
{
    uint64_t m = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    uint64_t a = m >> 32, b = m & 0xffffffffu;
    uint64_t bb = b * b, ab = a * b, aa = a * a;
    uint64_t mid_lo = ab << 33, mid_hi = ab >> 31;
    uint64_t plo = bb + mid_lo, phi = aa + mid_hi + (plo < bb);
    uint64_t nlo = *lo + plo;
    *hi += phi + (nlo < *lo);
    *lo = nlo;
}

/* bucket: the quantize-family bucket x falls in. */
static inline __attribute__((always_inline)) unsigned bucket(const struct dif_agg *g,
                                                             int64_t x)
{
    if (g->dg_func == DIF_AGG_QUANTIZE)
        return quantize_index(x);
    if (g->dg_func == DIF_AGG_LLQUANTIZE)
        return llq_index(g->dg_param, x);
    const int64_t *a = g->dg_param;
    unsigned levels = (unsigned)((a[1] - a[0]) / a[2]);
    unsigned k = x < a[0] ? 0 : x >= a[1] ? levels + 1 : 1 + (unsigned)((x - a[0]) / a[2]);
    return k > levels + 1 ? levels + 1 : k;
}

static void apply(const struct dif_agg *g, int64_t *v, int64_t x)
{
    switch (g->dg_func) {
    case DIF_AGG_COUNT: v[0]++; break;
    case DIF_AGG_SUM: v[0] = (int64_t)((uint64_t)v[0] + (uint64_t)x); break;
    case DIF_AGG_MIN: if (x < v[0]) v[0] = x; break;
    case DIF_AGG_MAX: if (x > v[0]) v[0] = x; break;
    case DIF_AGG_AVG: v[0]++; v[1] = (int64_t)((uint64_t)v[1] + (uint64_t)x); break;
    case DIF_AGG_STDDEV: {
        uint64_t hi = (uint64_t)v[2], lo = (uint64_t)v[3];
        v[0]++;
        v[1] = (int64_t)((uint64_t)v[1] + (uint64_t)x);
        add_square(&hi, &lo, x);
        v[2] = (int64_t)hi;
        v[3] = (int64_t)lo;
        break;
    }
    /* a bucket an increment of INT64_MAX left there wraps, as sum() does (no UB) */
    case DIF_AGG_QUANTIZE: { int64_t *b = &v[quantize_index(x)]; *b = (int64_t)((uint64_t)*b + 1u); break; }
    case DIF_AGG_LQUANTIZE: case DIF_AGG_LLQUANTIZE: { int64_t *b = &v[bucket(g, x)]; *b = (int64_t)((uint64_t)*b + 1u); break; }
    default: break;
    }
}

static struct aent *entry_at(struct dvm_agg_table *t, uint32_t off) { return (void *)(t->mem + off); }

int dvm_agg_update(struct dvm_state *st, unsigned cpu, unsigned agg, const uint8_t *keys,
                   unsigned keylen, unsigned sig, int64_t x)
{
    struct dvm_agg_table *t = &st->agg[cpu];
    const struct dif_agg *g = &st->obj.aggs[agg];
    uint32_t h = d_hash_words(2166136261u ^ agg ^ sig, keys, sig);
    uint32_t *slot = &t->bucket[h % t->nbuckets];
    struct aent *e = NULL;
    for (uint32_t o = *slot; o;) {
        struct aent *x = entry_at(t, o - 1);
        if (x->hash == h && x->agg == agg && x->sig == sig && d_words_eq(x + 1, keys, sig)) {
            e = x;
            break;
        }
        o = x->next;
    }
    unsigned nv = st->agg_vals[agg];
    if (!e) {
        uint32_t need = (uint32_t)sizeof(*e) + ((keylen + 7u) & ~7u) + nv * 8u;
        if (need > t->size - t->used) {
            st->stats[cpu].aggdrops++;
            return -1;
        }
        e = entry_at(t, t->used);
        e->agg = (uint16_t)agg;
        e->flags = 0;
        e->keylen = keylen;
        e->hash = h;
        e->sig = sig;
        e->pad = 0;
        d_words_copy(e + 1, keys, sig);
        d_words_zero((uint8_t *)(e + 1) + sig, ((keylen + 7u) & ~7u) - sig);
        init_vals(g, (int64_t *)((uint8_t *)(e + 1) + ((keylen + 7u) & ~7u)), nv);
        e->next = *slot;
        *slot = t->used + 1;
        t->used += need;
    }
    int64_t *v = (int64_t *)((uint8_t *)(e + 1) + ((keylen + 7u) & ~7u));
    if (e->flags & DVM_AGG_DELETED) {
        e->flags = 0;
        init_vals(g, v, nv);
    }
    apply(g, v, x);
    return (int)((uint8_t *)e - t->mem);
}

int dvm_agg_update_at(struct dvm_state *st, unsigned cpu, unsigned agg, uint32_t off, int64_t x)
{
    struct dvm_agg_table *t = &st->agg[cpu];
    struct aent *e = entry_at(t, off);
    if (off >= t->used || e->agg != agg || (e->flags & DVM_AGG_DELETED))
        return -1;
    apply(&st->obj.aggs[agg], (int64_t *)((uint8_t *)(e + 1) + ((e->keylen + 7u) & ~7u)), x);
    return 0;
}

void dvm_agg_add_bucket(struct dvm_state *st, unsigned cpu, unsigned agg, uint32_t off,
                        int64_t x, int64_t n)
{
    struct dvm_agg_table *t = &st->agg[cpu];
    struct aent *e = entry_at(t, off);
    const struct dif_agg *g = &st->obj.aggs[agg];
    if (off >= t->used || e->agg != agg || g->dg_func < DIF_AGG_QUANTIZE)
        return;
    int64_t *v = (int64_t *)((uint8_t *)(e + 1) + ((e->keylen + 7u) & ~7u));
    unsigned k = bucket(g, x);
    v[k] = (int64_t)((uint64_t)v[k] + (uint64_t)n);
}

void dvm_agg_walk(struct dvm_state *st, unsigned cpu, dvm_agg_cb cb, void *arg)
{
    struct dvm_agg_table *t = &st->agg[cpu];
    for (uint32_t o = 0; o < t->used;) {
        struct aent *e = entry_at(t, o);
        uint32_t kl = (e->keylen + 7u) & ~7u;
        const int64_t *v = (const int64_t *)((uint8_t *)(e + 1) + kl);
        if (!(e->flags & DVM_AGG_DELETED))
            cb(arg, e->agg, (const uint8_t *)(e + 1), v);
        o += (uint32_t)sizeof(*e) + kl + st->agg_vals[e->agg] * 8u;
    }
}

/* for_each: applies clear (keys == NULL) or remove to matching entries on every CPU. */
static void for_each(struct dvm_state *st, unsigned agg, const uint8_t *keys, size_t len)
{
    const struct dif_agg *g = &st->obj.aggs[agg];
    for (unsigned cpu = 0; cpu < st->opts.ncpu; cpu++) {
        struct dvm_agg_table *t = &st->agg[cpu];
        for (uint32_t o = 0; o < t->used;) {
            struct aent *e = entry_at(t, o);
            uint32_t kl = (e->keylen + 7u) & ~7u;
            int64_t *v = (int64_t *)((uint8_t *)(e + 1) + kl);
            if (e->agg == agg) {
                if (!keys)
                    init_vals(g, v, st->agg_vals[agg]);
                else if (e->keylen <= len && memcmp(e + 1, keys, e->keylen) == 0)
                    e->flags |= DVM_AGG_DELETED;
            }
            o += (uint32_t)sizeof(*e) + kl + st->agg_vals[e->agg] * 8u;
        }
    }
}

void dvm_agg_clear(struct dvm_state *st, unsigned agg) { for_each(st, agg, NULL, 0); }

unsigned dvm_agg_keylen_max(const struct dvm_state *st, unsigned agg)
{
    unsigned max = 0;
    for (unsigned cpu = 0; cpu < st->opts.ncpu; cpu++) {
        const struct dvm_agg_table *t = &st->agg[cpu];
        for (uint32_t o = 0; o < t->used;) {
            const struct aent *e = entry_at((struct dvm_agg_table *)t, o);
            uint32_t kl = (e->keylen + 7u) & ~7u;
            if (e->agg == agg && e->keylen > max)
                max = e->keylen;
            o += (uint32_t)sizeof(*e) + kl + st->agg_vals[e->agg] * 8u;
        }
    }
    return max;
}

int dvm_agg_remove(struct dvm_state *st, unsigned agg, const uint8_t *keys, size_t len)
{
    if (agg >= st->obj.hdr->dh_naggs || !keys)
        return -1;
    for_each(st, agg, keys, len);
    return 0;
}

int dvm_agg_restore(struct dvm_state *st, unsigned cpu, const uint8_t *bytes, uint32_t n)
{
    if (cpu >= st->opts.ncpu)
        return -1;
    struct dvm_agg_table *t = &st->agg[cpu];
    if (n > t->size)
        return -1;
    for (uint32_t o = 0; o < n;) {     // whole entries of the program's aggregations
        struct aent e;
        if (n - o < sizeof(e))
            return -1;
        memcpy(&e, bytes + o, sizeof(e));
        uint32_t kl = (e.keylen + 7u) & ~7u;
        if (e.agg >= st->obj.hdr->dh_naggs || e.keylen > n ||
            (uint64_t)sizeof(e) + kl + st->agg_vals[e.agg] * 8u > n - o)
            return -1;
        o += (uint32_t)sizeof(e) + kl + st->agg_vals[e.agg] * 8u;
    }
    memcpy(t->mem, bytes, n);
    t->used = n;
    for (uint32_t b = 0; b < t->nbuckets; b++)
        t->bucket[b] = 0;
    for (uint32_t o = 0; o < n;) {
        struct aent *e = entry_at(t, o);
        uint32_t *slot = &t->bucket[e->hash % t->nbuckets];
        e->next = *slot;
        *slot = o + 1;
        o += (uint32_t)sizeof(*e) + ((e->keylen + 7u) & ~7u) + st->agg_vals[e->agg] * 8u;
    }
    return 0;
}
