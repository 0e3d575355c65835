// SPDX-License-Identifier: MIT
// The consumer side of the engine: decodes principal-buffer records with the object's
// metadata (EPID -> ECB -> probe and clause -> actions and record layout) and prints them
// as dtrace(1M) does; merges the per-CPU aggregation buffers, sorts and prints them;
// reports errors and drops on the error sink. Portable: no stdio, memory from the caller.
#include <d/dcons.h>
#include <d/dprobes.h>
#include "dutil.h"

static void out(struct dcons *c, const char *s) { dfmt_puts(&c->out, s); }

static void outf_int(const struct dcons_out *o, const char *fmt, int64_t v)
{
    struct dfmt_arg a = { 'l', v, 0 };
    dfmt_printf(o, fmt, &a, 1, NULL, NULL);
}

static void outf_str(const struct dcons_out *o, const char *fmt, const char *s)
{
    struct dfmt_arg a = { 's', 0, s };
    dfmt_printf(o, fmt, &a, 1, NULL, NULL);
}

void dcons_init(struct dcons *c, struct dvm_state *st, const struct dcons_out *o,
                const struct dcons_out *err, void *mem, size_t memlen)
{
    memset(c, 0, sizeof(*c));
    c->st = st;
    dcons_stack_state = st;
    c->obj = &st->obj;
    c->out = *o;
    c->err = *err;
    c->mem = mem;
    c->memlen = memlen;
    for (unsigned k = 0; k < DIF_MAXAGGS; k++)
        c->norm[k] = 1;
}

/* ---- values ------------------------------------------------------------------------------ */

// A 64-bit value of a record, at any alignment, in the host's own order (the engine that wrote
// it runs here, or its buffers were copied as they are).
static int64_t rec_s64(const uint8_t *p)
{
    int64_t v;
    memcpy(&v, p, 8);
    return v;
}

static int64_t sized(int64_t v, char t)
{
    switch (t) {
    case 'b': return (int8_t)v;
    case 'B': return (uint8_t)v;
    case 'h': return (int16_t)v;
    case 'H': return (uint16_t)v;
    case 'i': return (int32_t)v;
    case 'I': return (uint32_t)v;
    default: return v;
    }
}

/* as_traced: an integer as libdtrace's trace( ) and key printing show it: by its size only,
 * 1- and 2-byte values zero-extended, 4- and 8-byte ones signed (dt_consume.c prints them
 * with %d of the unsigned datum). */
static int64_t as_traced(int64_t v, char t)
{
    int bytes = d_type_bytes(t);
    return bytes == 1 ? (uint8_t)v : bytes == 2 ? (uint16_t)v : bytes == 4 ? (int32_t)v : v;
}

/* type_width: the column an integer of type t takes in printa's and the keys' output */
static int type_width(char t)
{
    static const int width[9] = { [1] = 3, [2] = 5, [4] = 8, [8] = 16 };
    return width[d_type_bytes(t)];
}

/* decode: record stack layout -> printf arguments; returns the count. */
static unsigned decode(struct dcons *c, const char *types, const uint8_t *p, struct dfmt_arg *a,
                       unsigned max)
{
    unsigned n = 0, ssz = (c->st->strsize + 7u) & ~7u;
    for (; types[n] && n < max; n++) {
        a[n].type = types[n];
        if (types[n] == 's') {
            /* NUL-padded by the engine; a damaged record prints "" rather than overrun */
            a[n].s = memchr(p, 0, ssz) ? (const char *)p : "";
            p += ssz;
        } else {
            a[n].i = sized(rec_s64(p), types[n]);
            p += 8;
        }
    }
    return n;
}

static void print_value(struct dcons *c, const struct dfmt_arg *a)
{
    const char *sym = dcons_symaddr_kind(a->type, 0);
    if (sym) { /* libdtrace's dt_print_sym/usym/mod: "  %-50s" (csymaddr.c) */
        char tok[48];
        dcons_symaddr_token(tok, sizeof(tok), sym, NULL, (uint64_t)a->i);
        outf_str(&c->out, "  %-50s", tok);
        return;
    }
    if (a->type == 's') {
        if (c->quiet)
            out(c, a->s);
        else
            outf_str(&c->out, "  %-33s", a->s);
        return;
    }
    if (c->quiet) {
        outf_int(&c->out, "%d", as_traced(a->i, a->type));
        return;
    }
    struct dfmt_spec sp = { 'd', 0, 0, 0, 0, 0, 0, type_width(a->type), -1 };
    out(c, " ");
    dfmt_int(&c->out, &sp, as_traced(a->i, a->type), 'l');
}

/* print_mem: tracemem's bytes as a dump: a header of column numbers, then per 16 bytes the
 * offset in hex, the bytes in hex and the printable ones as text ('.' for the rest). */
static void print_mem(struct dcons *c, const uint8_t *p, unsigned n)
{
    static const char hex[] = "0123456789abcdef";
    char line[96];
    if (!c->quiet)
        out(c, "\n");
    unsigned k = 0;
    for (; k < 12; k++)
        line[k] = ' ';
    for (unsigned col = 0; col < 16; col++, k += 3) {
        line[k] = ' ';
        line[k + 1] = hex[col];
        line[k + 2] = ' ';
    }
    line[k++] = ' ';
    for (unsigned col = 0; col < 16; col++)
        line[k++] = hex[col];
    line[k++] = '\n';
    line[k] = 0;
    out(c, line);
    for (unsigned row = 0; row < n; row += 16) {
        k = 0;
        char off[10];
        unsigned v = row, w = 0;
        do {
            off[w++] = hex[v % 16u];
            v /= 16u;
        } while (v);
        while (k < 10u - w)
            line[k++] = ' ';
        while (w)
            line[k++] = off[--w];
        line[k++] = ':';
        line[k++] = ' ';
        for (unsigned col = 0; col < 16; col++, k += 3) {
            int in = row + col < n;
            line[k] = in ? hex[p[row + col] >> 4] : ' ';
            line[k + 1] = in ? hex[p[row + col] & 15u] : ' ';
            line[k + 2] = ' ';
        }
        line[k++] = ' ';
        for (unsigned col = 0; col < 16 && row + col < n; col++) {
            uint8_t b = p[row + col];
            line[k++] = b >= 0x20 && b < 0x7f ? (char)b : '.';
        }
        line[k++] = '\n';
        line[k] = 0;
        out(c, line);
    }
}

/* ---- aggregations ------------------------------------------------------------------------ */

/* An entry's sort value as libdtrace's dt_aggregate_valcmp compares them: the raw value
 * (not normalized) of a scalar function; for the quantize family the sum of count times bucket
 * value (exact, in 128 bits, where libdtrace uses a long double), then the zero bucket's count. */
struct aggent {
    const uint8_t *keys;
    int64_t *vals;
    unsigned agg;
    int64_t sort_hi;    /* signed high half */
    uint64_t sort_lo;
    int64_t sort_zero;
};

/* merge: the entries of the aggregations a printa( ) names (aggs[0..naggs-1], one or more,
 * maybe repeated), merged over the CPUs in c->mem, then grouped by key into bundles: one
 * entry per named aggregation (UINT32_MAX: none, printed as zero), as libdtrace's
 * dtrace_aggregate_walk_joined; a single aggregation gives bundles of one. */
struct merge {
    struct dcons *c;
    const unsigned *aggs;
    unsigned naggs, maxnv, keylen, n, cap, nbundles;
    unsigned nslots;        /* sized to the entries walked, not to cap: only they are cleared */
    struct aggent *ents;
    uint32_t *slot;         /* nslots (<= 2 * cap) hash slots: entry index + 1, 0 = empty */
    int64_t *vals;          /* cap * maxnv values, then maxnv zeros */
    uint32_t *order;        /* cap entry indices, sorted by key */
    uint32_t *bundle;       /* per bundle: naggs entry indices */
    uint32_t *border;       /* bundle indices in print order */
    struct aggent *zero;    /* per position: the zero entry of a missing key */
    int full;
};

static uint32_t key_hash(const uint8_t *p, unsigned n)
{
    uint64_t x = 0xcbf29ce484222325ull;
    for (unsigned k = 0; k + 8 <= n; k += 8) {
        uint64_t w;
        memcpy(&w, p + k, 8);
        x = (x ^ w) * 0x100000001b3ull;
        x ^= x >> 29;
    }
    return (uint32_t)(x ^ (x >> 32));
}

static void merge_vals(const struct dif_agg *g, int64_t *d, const int64_t *s, unsigned nv)
{
    switch (g->dg_func) {
    case DIF_AGG_MIN: if (s[0] < d[0]) d[0] = s[0]; break;
    case DIF_AGG_MAX: if (s[0] > d[0]) d[0] = s[0]; break;
    case DIF_AGG_STDDEV: {
        d[0] += s[0];
        d[1] += s[1];
        uint64_t lo = (uint64_t)d[3] + (uint64_t)s[3];
        d[2] = (int64_t)((uint64_t)d[2] + (uint64_t)s[2] + (lo < (uint64_t)d[3]));
        d[3] = (int64_t)lo;
        break;
    }
    default:
        for (unsigned k = 0; k < nv; k++)
            d[k] += s[k];
    }
}

static void merge_cb(void *arg, unsigned agg, const uint8_t *keys, const int64_t *vals)
{
    struct merge *m = arg;
    const struct dif_agg *g = &m->c->obj->aggs[agg];
    unsigned p = 0, nv = m->c->st->agg_vals[agg];
    while (p < m->naggs && m->aggs[p] != agg)
        p++;
    if (p == m->naggs || m->cap == 0)
        return;
    uint32_t nslots = m->nslots, s = (key_hash(keys, m->keylen) ^ agg * 0x9e3779b9u) % nslots;
    for (; m->slot[s]; s = (s + 1) % nslots) {
        struct aggent *x = &m->ents[m->slot[s] - 1];
        if (x->agg == agg && memcmp(x->keys, keys, m->keylen) == 0) {
            merge_vals(g, x->vals, vals, nv);
            return;
        }
    }
    if (m->n == m->cap) {
        m->full = 1;
        return;
    }
    m->slot[s] = m->n + 1;
    struct aggent *e = &m->ents[m->n];
    e->keys = keys;
    e->agg = agg;
    e->vals = m->vals + (size_t)m->n * m->maxnv;
    memcpy(e->vals, vals, nv * 8u);
    m->n++;
}

/* isqrt128: floor(sqrt(hi:lo)) */
static uint64_t isqrt128(uint64_t hi, uint64_t lo)
{
    uint64_t r = 0;
    for (int b = 63; b >= 0; b--) {
        uint64_t t = r | (1ull << b);
        /* t*t <= hi:lo ? */
        uint64_t a1 = t >> 32, a0 = t & 0xffffffffu;
        uint64_t p0 = a0 * a0, p1 = a1 * a0, p2 = a1 * a1;
        uint64_t mlo = p1 << 33, mhi = p1 >> 31;
        uint64_t slo = p0 + mlo, shi = p2 + mhi + (slo < p0);
        if (shi < hi || (shi == hi && slo <= lo))
            r = t;
    }
    return r;
}

/* div128: (hi:lo) / d, quotient assumed to fit 64 bits. */
static uint64_t div128(uint64_t hi, uint64_t lo, uint64_t d)
{
    uint64_t q = 0, r = hi % d;
    for (int b = 63; b >= 0; b--) {
        int carry = (int)(r >> 63);
        r = (r << 1) | ((lo >> b) & 1u);
        if (carry || r >= d) {
            r -= d;
            q |= 1ull << b;
        }
    }
    return q;
}

static int64_t stddev(const int64_t *v)
{
    if (v[0] == 0)
        return 0;
    uint64_t n = (uint64_t)v[0];
    uint64_t meansq = div128((uint64_t)v[2], (uint64_t)v[3], n); /* E[x^2] */
    int64_t mean = v[1] / v[0];
    uint64_t am = mean < 0 ? 0 - (uint64_t)mean : (uint64_t)mean;
    uint64_t m2 = am * am;
    if (meansq < m2)
        return 0;
    return (int64_t)isqrt128(0, meansq - m2);
}

static int64_t agg_value(struct dcons *c, unsigned agg, const int64_t *v)
{
    const struct dif_agg *g = &c->obj->aggs[agg];
    int64_t r;
    switch (g->dg_func) {
    case DIF_AGG_AVG: r = v[0] ? v[1] / v[0] : 0; break;
    case DIF_AGG_STDDEV: r = stddev(v); break;
    case DIF_AGG_MIN: r = v[0] == INT64_MAX ? 0 : v[0]; break;
    case DIF_AGG_MAX: r = v[0] == INT64_MIN ? 0 : v[0]; break;
    case DIF_AGG_QUANTIZE: case DIF_AGG_LQUANTIZE: case DIF_AGG_LLQUANTIZE: {
        r = 0;
        unsigned nv = c->st->agg_vals[agg];
        for (unsigned k = 0; k < nv; k++)
            r += v[k] * dvm_agg_bucket_value(g, k);
        return r;
    }
    default: r = v[0]; break;
    }
    return c->norm[agg] ? r / c->norm[agg] : r;
}

/* mac128: (hi:lo) += a * b, signed, in 128 bits without a 128-bit type. */
static void mac128(int64_t *hi, uint64_t *lo, int64_t a, int64_t b)
{
    uint64_t x = a < 0 ? 0 - (uint64_t)a : (uint64_t)a, y = b < 0 ? 0 - (uint64_t)b : (uint64_t)b;
    uint64_t x1 = x >> 32, x0 = x & 0xffffffffu, y1 = y >> 32, y0 = y & 0xffffffffu;
    uint64_t p00 = x0 * y0, p01 = x0 * y1, p10 = x1 * y0, p11 = x1 * y1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    uint64_t plo = (mid << 32) | (p00 & 0xffffffffu);
    uint64_t phi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    if ((a < 0) != (b < 0) && (plo | phi)) { /* negate the product */
        plo = 0 - plo;
        phi = ~phi + (plo == 0);
    }
    uint64_t nlo = *lo + plo;
    *hi = (int64_t)((uint64_t)*hi + phi + (nlo < *lo));
    *lo = nlo;
}

static void sort_value(struct dcons *c, unsigned agg, struct aggent *e)
{
    const struct dif_agg *g = &c->obj->aggs[agg];
    const int64_t *v = e->vals;
    e->sort_hi = 0;
    e->sort_lo = 0;
    e->sort_zero = 0;
    if (g->dg_func < DIF_AGG_QUANTIZE) {
        int64_t r;
        switch (g->dg_func) {
        case DIF_AGG_AVG: r = v[0] ? v[1] / v[0] : 0; break;
        case DIF_AGG_STDDEV: r = stddev(v); break;
        default: r = v[0]; break;
        }
        e->sort_hi = r < 0 ? -1 : 0;
        e->sort_lo = (uint64_t)r;
        return;
    }
    unsigned nv = c->st->agg_vals[agg];
    for (unsigned k = 0; k < nv; k++) {
        int64_t bv = dvm_agg_bucket_value(g, k);
        /* libdtrace weighs lquantize's overflow bucket at its base + 1 */
        if (g->dg_func == DIF_AGG_LQUANTIZE && k == nv - 1)
            bv += 1;
        if (g->dg_func == DIF_AGG_QUANTIZE ? k == DIF_QUANTIZE_ZERO
            : g->dg_func == DIF_AGG_LLQUANTIZE ? k == 1 : bv == 0 && k > 0 && k < nv - 1)
            e->sort_zero = v[k];
        mac128(&e->sort_hi, &e->sort_lo, v[k], bv);
    }
    /* lquantize: zero may also be the underflow (base - 1 == 0) or overflow bucket's weight */
    if (g->dg_func == DIF_AGG_LQUANTIZE) {
        if (dvm_agg_bucket_value(g, 0) == 0)
            e->sort_zero = v[0];
        else if (dvm_agg_bucket_value(g, nv - 1) + 1 == 0)
            e->sort_zero = v[nv - 1];
    }
}

static int val_cmp(const struct aggent *x, const struct aggent *y)
{
    if (x->sort_hi != y->sort_hi)
        return x->sort_hi < y->sort_hi ? -1 : 1;
    if (x->sort_lo != y->sort_lo)
        return x->sort_lo < y->sort_lo ? -1 : 1;
    return x->sort_zero < y->sort_zero ? -1 : x->sort_zero > y->sort_zero;
}

/* key_one: compares key k (type t at byte offset off) of two key tuples. */
static int key_one(char t, const uint8_t *a, const uint8_t *b)
{
    if (t == 's') {
        int d = strcmp((const char *)a, (const char *)b);
        return d < 0 ? -1 : d > 0;
    }
    /* libdtrace compares keys as unsigned values of their size (dt_aggregate_keycmp) */
    uint64_t x = (uint64_t)sized(rec_s64(a), t), y = (uint64_t)sized(rec_s64(b), t);
    if (t != 'l' && t != 'L') {
        uint64_t mask = t == 'b' || t == 'B' ? 0xff : t == 'h' || t == 'H' ? 0xffff : 0xffffffff;
        x &= mask;
        y &= mask;
    }
    return x < y ? -1 : x > y;
}

/* key_cmp: keys in the order libdtrace's dt_aggregate_keycmp takes them: from key
 * aggsortkeypos (when there is such a key) to the last, then from the first. */
static int key_cmp(struct dcons *c, const char *types, const uint8_t *a, const uint8_t *b)
{
    unsigned ssz = (c->st->strsize + 7u) & ~7u, n = (unsigned)strlen(types);
    unsigned first = c->aggsortkeypos < n ? c->aggsortkeypos : 0, off[DIF_RECMAX + 1];
    off[0] = 0;
    for (unsigned k = 0; k < n && k < DIF_RECMAX; k++)
        off[k + 1] = off[k] + (types[k] == 's' ? ssz : 8u);
    int d = 0;
    for (unsigned j = 0; j < n && j < DIF_RECMAX && d == 0; j++) {
        unsigned k = (first + j) % n;
        d = key_one(types[k], a + off[k], b + off[k]);
    }
    return d;
}

/* sort helpers: heapsort of uint32 indices (O(n log n), no extra memory). */
typedef int (*idx_cmp)(struct merge *m, uint32_t x, uint32_t y);

static void idx_sort(struct merge *m, uint32_t *a, unsigned n, idx_cmp cmp)
{
    uint32_t t;
    for (unsigned start = n / 2, end = n; end > 1;) {
        unsigned root;
        if (start > 0) {
            root = --start;
        } else {
            end--;
            t = a[0], a[0] = a[end], a[end] = t;
            root = 0;
        }
        for (unsigned child; (child = 2 * root + 1) < end; root = child) {
            if (child + 1 < end && cmp(m, a[child], a[child + 1]) < 0)
                child++;
            if (cmp(m, a[root], a[child]) >= 0)
                break;
            t = a[root], a[root] = a[child], a[child] = t;
        }
    }
}

static const char *key_types(struct merge *m)
{
    return dif_str(m->c->obj, m->c->obj->aggs[m->aggs[0]].dg_keys);
}

/* ent_keyagg: entries by key, then by aggregation (dt_aggregate_keyvarcmp). */
static int ent_keyagg(struct merge *m, uint32_t x, uint32_t y)
{
    const struct aggent *a = &m->ents[x], *b = &m->ents[y];
    int d = key_cmp(m->c, key_types(m), a->keys, b->keys);
    return d ? d : a->agg < b->agg ? -1 : a->agg > b->agg;
}

static const struct aggent *bundle_ent(struct merge *m, uint32_t b, unsigned pos)
{
    uint32_t e = m->bundle[(size_t)b * m->naggs + pos];
    return e == UINT32_MAX ? &m->zero[pos] : &m->ents[e];
}

/* bundle_cmp: as dt_aggregate_bundlecmp: the values from position aggsortpos on (each as
 * dt_aggregate_valcmp), then the key; with aggsortkey the key first; aggsortrev reverses. */
static int bundle_cmp(struct merge *m, uint32_t x, uint32_t y)
{
    struct dcons *c = m->c;
    const uint8_t *kx = bundle_ent(m, x, 0)->keys, *ky = bundle_ent(m, y, 0)->keys;
    for (unsigned p = 0; p < m->naggs && kx == NULL; p++)
        kx = bundle_ent(m, x, p)->keys;
    for (unsigned p = 0; p < m->naggs && ky == NULL; p++)
        ky = bundle_ent(m, y, p)->keys;
    int kc = key_cmp(c, key_types(m), kx, ky), r = 0;
    if (c->aggsortkey)
        r = kc;
    unsigned first = c->aggsortpos < m->naggs ? c->aggsortpos : 0;
    for (unsigned j = 0; j < m->naggs && r == 0; j++) {
        unsigned p = (first + j) % m->naggs;
        r = val_cmp(bundle_ent(m, x, p), bundle_ent(m, y, p));
    }
    if (r == 0 && !c->aggsortkey)
        r = kc;
    return c->aggsortrev ? -r : r;
}

static void count_cb(void *arg, unsigned agg, const uint8_t *keys, const int64_t *vals)
{
    (void)agg, (void)keys, (void)vals;
    (*(unsigned *)arg)++;
}

/* collect: merges, bundles and sorts the entries of aggs[0..naggs-1] in c->mem; returns the
 * number of bundles (m->border lists them in print order). */
static unsigned collect(struct dcons *c, const unsigned *aggs, unsigned naggs, struct merge *m)
{
    memset(m, 0, sizeof(*m));
    m->c = c;
    m->aggs = aggs;
    m->naggs = naggs;
    for (unsigned p = 0; p < naggs; p++)
        if (c->st->agg_vals[aggs[p]] > m->maxnv)
            m->maxnv = c->st->agg_vals[aggs[p]];
    m->keylen = dif_types_size(dif_str(c->obj, c->obj->aggs[aggs[0]].dg_keys), c->st->strsize);
    /* c->mem: entries, zero entries, hash slots, order, bundles, bundle order, values */
    size_t zlen = naggs > 1 ? m->maxnv * 8u : 8u; /* zero values: only joined printa needs them */
    size_t fixed = 64 + naggs * sizeof(struct aggent) + zlen + 16;
    size_t per = sizeof(struct aggent) + 2u * sizeof(uint32_t) + sizeof(uint32_t) +
                 naggs * sizeof(uint32_t) + sizeof(uint32_t) + m->maxnv * 8u;
    m->cap = c->memlen > fixed ? (unsigned)((c->memlen - fixed) / per) : 0;
    uint8_t *base = (uint8_t *)(((uintptr_t)c->mem + 7u) & ~(uintptr_t)7u);
    m->ents = (struct aggent *)(void *)base;
    m->zero = m->ents + m->cap;
    m->slot = (uint32_t *)(void *)(m->zero + naggs);
    m->order = m->slot + 2u * m->cap;
    m->bundle = m->order + m->cap;
    m->border = m->bundle + (size_t)m->cap * naggs;
    m->vals = (int64_t *)(void *)(((uintptr_t)(m->border + m->cap) + 7u) & ~(uintptr_t)7u);
    /* the hash table holds at most the entries there are (over all CPUs): twice that many
     * slots, so a printa( ) costs what its entries cost, not what c->mem could hold */
    unsigned nents = 0;
    for (unsigned cpu = 0; cpu < c->st->opts.ncpu; cpu++)
        dvm_agg_walk(c->st, cpu, count_cb, &nents);
    m->nslots = nents < m->cap ? 2u * nents + 1u : 2u * m->cap;
    memset(m->slot, 0, m->nslots * sizeof(uint32_t));
    for (unsigned cpu = 0; cpu < c->st->opts.ncpu; cpu++)
        dvm_agg_walk(c->st, cpu, merge_cb, m);
    int64_t *zv = m->vals + (size_t)m->cap * m->maxnv;
    memset(zv, 0, zlen);
    for (unsigned p = 0; p < naggs; p++) {
        m->zero[p] = (struct aggent){ NULL, zv, aggs[p], 0, 0, 0 };
    }
    for (unsigned k = 0; k < m->n; k++) {
        sort_value(c, m->ents[k].agg, &m->ents[k]);
        m->order[k] = k;
    }
    idx_sort(m, m->order, m->n, ent_keyagg);
    for (unsigned k = 0; k < m->n;) {
        uint32_t *b = &m->bundle[(size_t)m->nbundles * naggs];
        for (unsigned p = 0; p < naggs; p++)
            b[p] = UINT32_MAX;
        unsigned j = k;
        for (; j < m->n && key_cmp(c, key_types(m), m->ents[m->order[j]].keys,
                                   m->ents[m->order[k]].keys) == 0; j++)
            for (unsigned p = 0; p < naggs; p++)
                if (aggs[p] == m->ents[m->order[j]].agg)
                    b[p] = m->order[j];
        m->border[m->nbundles] = m->nbundles;
        m->nbundles++;
        k = j;
    }
    idx_sort(m, m->border, m->nbundles, bundle_cmp);
    return m->nbundles;
}

/* the bar total: dcons.h's struct dcons_bar_total */
#define bar_total dcons_bar_total

static void bar_total_add(struct bar_total *t, uint64_t mag)
{
    t->lo += mag;
    t->hi += t->lo < mag;
}

/* utf8_bar: a row's bar under the encoding=utf8 option, as dt_print_quantline_utf8: the 40
 * columns hold mag / t of the width (num / den of it under aggzoom) in whole blocks (U+2588)
 * then one partial block of the eighths left over (U+258F is one eighth ... U+2589 seven).
 * mag and t are at most 2^52 here. */
static void utf8_bar(struct dcons *c, uint64_t mag, uint64_t t, uint64_t num, uint64_t den)
{
    static const char sp[] = "                                        ";
    while (mag > UINT64_MAX / 8192) { /* 40 * 8 * num must not overflow */
        mag >>= 1;
        t >>= 1;
    }
    uint64_t eighths = t ? mag * 40u * 8u * num / (t * den) : 0;
    if (eighths > 40u * 8u)
        eighths = 40u * 8u;
    unsigned whole = (unsigned)(eighths / 8u), part = (unsigned)(eighths % 8u), used = whole;
    char block[4] = { (char)0xe2, (char)0x96, (char)0x88, 0 }; /* U+2588 in UTF-8 */
    out(c, "|");
    for (unsigned k = 0; k < whole; k++)
        out(c, block);
    if (part) {
        block[2] = (char)(0x80 | (0x10 - part)); /* U+2590 - part */
        out(c, block);
        used++;
    }
    out(c, sp + (used > 40 ? 40 : used));
}

/* bar_reduce: a row's magnitude and the total, halved together until 4096 times either fits
 * 64 bits (the total first down to 64 bits, the row with it: the row is at most the total). */
static void bar_reduce(int64_t val, struct bar_total total, uint64_t *mag, uint64_t *t)
{
    *mag = val < 0 ? 0 - (uint64_t)val : (uint64_t)val;
    *t = total.lo;
    for (uint64_t hi = total.hi; hi; hi >>= 1) {
        *t = *t >> 1 | hi << 63;
        *mag >>= 1;
    }
    while (*mag > UINT64_MAX / 4096 || *t > UINT64_MAX / 4096) {
        *mag >>= 1;
        *t >>= 1;
    }
}

unsigned dcons_bar_depth(int64_t val, struct bar_total total, unsigned len, int zoom)
{
    uint64_t mag, t;
    bar_reduce(val, total, &mag, &t);
    /* aggzoom: total is the largest row, drawn at 95% of the bar (DTRACE_AGGZOOM_MAX); as the
     * double 0.95 is a little under 0.95, libdtrace rounds an exact half down there */
    uint64_t num = zoom ? 19 : 1, den = zoom ? 20 : 1, half = zoom != 0;
    unsigned depth = t ? (unsigned)((mag * len * num * 2 + t * den - half) / (2 * t * den)) : 0;
    return depth > len ? len : depth;
}

/* One row's bar, as dt_print_quantline: 40 columns of '@' scaled to the total (rounded), or two
 * half bars around a centre line when the shown rows hold both signs. Then the count. */
static void quantline(struct dcons *c, int64_t val, int64_t norm, struct bar_total total,
                      int pos, int neg, int zoom)
{
    static const char ats[] = "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@";
    static const char sp[] = "                                        ";
    unsigned len = pos && neg ? 20 : 40;
    unsigned depth = pos || neg ? dcons_bar_depth(val, total, len, zoom) : 0;
    if (!neg && pos && c->encoding == DCONS_ENC_UTF8) {
        uint64_t mag, t;
        bar_reduce(val, total, &mag, &t);
        utf8_bar(c, mag, t, zoom ? 19 : 1, zoom ? 20 : 1);
    } else if (!neg) {
        out(c, "|");
        out(c, ats + 40 - depth);
        out(c, sp + depth);
    } else if (!pos) {
        out(c, sp + depth);
        out(c, ats + 40 - depth);
        out(c, "|");
    } else if (val <= 0) {
        out(c, sp + 20 + depth);
        out(c, ats + 40 - depth);
        out(c, "|");
        out(c, sp + 20);
    } else {
        out(c, sp + 20);
        out(c, "|");
        out(c, ats + 40 - depth);
        out(c, sp + 20 + depth);
    }
    outf_int(&c->out, " %-9d\n", val / norm);
}

void dcons_bucket_label(const struct dif_agg *g, unsigned nv, unsigned k, char *label, size_t n)
{
    const int64_t *p = g->dg_param;
    int linear = g->dg_func != DIF_AGG_QUANTIZE;
    char num[24];
    int64_t bv = dvm_agg_bucket_value(g, k);
    label[0] = 0;
    if (linear && k == 0) {
        d_strlcpy(label, "< ", n);
        bv += 1;
    } else if (linear && k == nv - 1) {
        d_strlcpy(label, ">= ", n);
        if (g->dg_func == DIF_AGG_LQUANTIZE)
            bv = p[0] + (p[1] - p[0]) / p[2] * p[2];
    }
    if (bv < 0)
        d_strlcat(label, "-", n);
    d_strlcat(label, d_utoa(num, bv < 0 ? 0 - (uint64_t)bv : (uint64_t)bv), n);
}

/* print_dist: a quantize/lquantize/llquantize table exactly as libdtrace's dt_print_*quantize:
 * rows from one before the first non-zero bucket to one after the last, a "< lo" / ">= hi"
 * label on the outer buckets of the linear kinds. */
static void print_dist(struct dcons *c, unsigned agg, const int64_t *v)
{
    const struct dif_agg *g = &c->obj->aggs[agg];
    unsigned nv = c->st->agg_vals[agg];
    int64_t norm = c->norm[agg] ? c->norm[agg] : 1;
    unsigned lo = 0, hi = nv - 1;
    while (lo < nv && v[lo] == 0)
        lo++;
    if (lo == nv) {
        lo = g->dg_func == DIF_AGG_QUANTIZE ? DIF_QUANTIZE_ZERO - 1 : 0;
        hi = g->dg_func == DIF_AGG_QUANTIZE ? DIF_QUANTIZE_ZERO + 1
             : g->dg_func == DIF_AGG_LQUANTIZE ? 2 : 1;
    } else {
        if (lo > 0)
            lo--;
        while (hi > 0 && v[hi] == 0)
            hi--;
        if (hi < nv - 1)
            hi++;
    }
    struct bar_total total = { 0, 0 };
    int pos = 0, neg = 0;
    for (unsigned k = lo; k <= hi; k++) {
        pos |= v[k] > 0;
        neg |= v[k] < 0;
        uint64_t mag = v[k] < 0 ? 0 - (uint64_t)v[k] : (uint64_t)v[k];
        if (!c->aggzoom)
            bar_total_add(&total, mag);
        else if (mag > total.lo)
            total.lo = mag;
    }
    struct dfmt_arg h[3] = { { 's', 0, "value" },
                             { 's', 0, "------------- Distribution -------------" },
                             { 's', 0, "count" } };
    dfmt_printf(&c->out, "\n%16s %41s %-9s\n", h, 3, NULL, NULL);
    for (unsigned k = lo; k <= hi; k++) {
        char label[48];
        dcons_bucket_label(g, nv, k, label, sizeof(label));
        outf_str(&c->out, "%16s ", label);
        quantline(c, v[k], norm, total, pos, neg, c->aggzoom);
    }
}

/* print_keys: an aggregation's keys in printa( )'s default layout; merge names how its rows
 * combine (count, sum, min, max) for keys the host groups by symbol (csymaddr.c), or NULL. */
static void print_keys(struct dcons *c, const char *types, const uint8_t *keys,
                       const char *merge)
{
    struct dfmt_arg a[DIF_RECMAX];
    unsigned n = decode(c, types, keys, a, DIF_RECMAX);
    for (unsigned k = 0; k < n; k++) {
        const char *sym = dcons_symaddr_kind(a[k].type, 0);
        if (sym) {
            char tok[64];
            dcons_symaddr_token(tok, sizeof(tok), sym, merge, (uint64_t)a[k].i);
            outf_str(&c->out, "  %-50s", tok);
        } else if (a[k].type == 'k') {
            dcons_stack_print(&c->out, (uint64_t)a[k].i); /* trace/d/cstack.c */
        } else if (a[k].type == 's') {
            outf_str(&c->out, "  %-50s", a[k].s);
        } else {
            struct dfmt_spec sp = { 'd', 0, 0, 0, 0, 0, 0, type_width(a[k].type), -1 };
            out(c, " ");
            dfmt_int(&c->out, &sp, as_traced(a[k].i, a[k].type), 'l');
        }
    }
}

/* aggval: one %@ conversion: the next aggregation of the bundle (the last one again once
 * they are used up, as dt_printf_format does). */
struct aggval_ctx {
    struct merge *m;
    uint32_t b;
    unsigned cur;
};

static void aggval(void *arg, const struct dfmt_spec *sp)
{
    struct aggval_ctx *x = arg;
    struct dcons *c = x->m->c;
    const struct aggent *e = bundle_ent(x->m, x->b, x->cur);
    const struct dif_agg *g = &c->obj->aggs[e->agg];
    if (x->cur + 1 < x->m->naggs)
        x->cur++;
    if (g->dg_func >= DIF_AGG_QUANTIZE) {
        print_dist(c, e->agg, e->vals);
        return;
    }
    struct dfmt_spec s = *sp;
    if (s.conv == 's' || s.conv == 'c')
        s.conv = 'd';
    dfmt_int(&c->out, &s, agg_value(c, e->agg, e->vals), 'l');
}

/* agghist: a count( ), sum( ), avg( ) or stddev( ) aggregation drawn as a histogram, one
 * row per key, as libdtrace's agghist option does (dt_aggregate_total, dt_print_datum): the
 * bars against the total of the rows' magnitudes (aggzoom: the largest one over 0.95,
 * truncated), under a header as wide as the keys. */
struct hist {
    int on, pos, neg;
    struct bar_total total;
};

static int64_t hist_value(struct dcons *c, const struct aggent *e)
{
    const int64_t *v = e->vals;
    switch (c->obj->aggs[e->agg].dg_func) {
    case DIF_AGG_AVG: return v[0] ? v[1] / v[0] : 0;
    case DIF_AGG_STDDEV: return stddev(v);
    default: return v[0];
    }
}

/* keys_width: the columns of a row's keys as agghist and aggpack print them (a string 16) */
static int keys_width(const char *types)
{
    int width = 0;
    for (const char *t = types; *t; t++)
        width += type_width(*t) + 1;
    return width;
}

static void hist_begin(struct dcons *c, struct merge *m, struct hist *h, const char *types)
{
    int f = c->obj->aggs[m->aggs[0]].dg_func;
    if (f != DIF_AGG_COUNT && f != DIF_AGG_SUM && f != DIF_AGG_AVG && f != DIF_AGG_STDDEV)
        return;
    h->on = 1;
    for (unsigned k = 0; k < m->n; k++) {
        int64_t v = hist_value(c, &m->ents[k]);
        uint64_t mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
        h->pos |= v > 0;
        h->neg |= v < 0;
        if (!c->aggzoom)
            bar_total_add(&h->total, mag);
        else if (mag / 19 * 20 + mag % 19 * 20 / 19 > h->total.lo) /* floor(mag / 0.95) */
            h->total.lo = mag / 19 * 20 + mag % 19 * 20 / 19;
    }
    int width = keys_width(types);
    struct dfmt_arg a[4] = { { 'l', width, 0 }, { 's', 0, "key" },
                             { 's', 0, "------------- Distribution -------------" },
                             { 's', 0, "count" } };
    dfmt_printf(&c->out, "\n%*s %41s %-9s\n", a, 4, NULL, NULL);
}

void dcons_keys_packed(struct dcons *c, const char *types, const uint8_t *keys)
{
    struct dfmt_arg a[DIF_RECMAX];
    unsigned n = decode(c, types, keys, a, DIF_RECMAX);
    for (unsigned k = 0; k < n; k++) {
        const char *sym = dcons_symaddr_kind(a[k].type, 0);
        char tok[48];
        if (sym)
            dcons_symaddr_token(tok, sizeof(tok), sym, NULL, (uint64_t)a[k].i);
        if (a[k].type == 's' || sym) {
            outf_str(&c->out, " %16s", sym ? tok : a[k].s);
        } else {
            struct dfmt_spec sp = { 'd', 0, 0, 0, 0, 0, 0, type_width(a[k].type), -1 };
            out(c, " ");
            dfmt_int(&c->out, &sp, as_traced(a[k].i, a[k].type), 'l');
        }
    }
}

static void hist_row(struct dcons *c, struct hist *h, const char *types, const uint8_t *keys,
                     const struct aggent *e)
{
    dcons_keys_packed(c, types, keys);
    out(c, " ");
    int64_t norm = c->norm[e->agg] ? c->norm[e->agg] : 1;
    quantline(c, hist_value(c, e), norm, h->total, h->pos, h->neg, 0);
}

/* print_aggs: printa( ) of one or several aggregations (joined on their keys, a missing one
 * shown as zero), with a format or in the default layout: the keys, then each value. */
static void print_aggs(struct dcons *c, const unsigned *aggs, unsigned naggs, const char *fmt,
                       int lead)
{
    const char *types = dif_str(c->obj, c->obj->aggs[aggs[0]].dg_keys);
    struct merge m;
    unsigned n = collect(c, aggs, naggs, &m);
    for (unsigned p = 0; p < naggs; p++)
        c->printed[aggs[p]] = 1;
    if (!fmt && lead)
        out(c, "\n");
    struct hist hist = { 0, 0, 0, { 0, 0 } };
    /* rows the host may merge once it names their keys: one count/sum/min/max (csymaddr.c) */
    static const char *const merges[] = { [DIF_AGG_COUNT] = "count", [DIF_AGG_SUM] = "sum",
                                          [DIF_AGG_MIN] = "min", [DIF_AGG_MAX] = "max" };
    int f0 = c->obj->aggs[aggs[0]].dg_func;
    const char *merge = naggs == 1 && f0 <= DIF_AGG_MAX ? merges[f0] : NULL;
    if (!fmt && naggs == 1 && c->agghist)
        hist_begin(c, &m, &hist, types);
    /* aggpack: every key's line over the buckets the keys share (caggpack.c) */
    unsigned plo = ~0u, phi = 0;
    int pack = !fmt && naggs == 1 && !hist.on && dcons_pack_on(c, aggs[0]);
    for (unsigned k = 0; pack && k < m.n; k++)
        dcons_pack_bins(c, aggs[0], m.ents[k].vals, &plo, &phi);
    if (pack && n)
        dcons_pack_head(c, aggs[0], keys_width(types), plo, phi);
    for (unsigned k = 0; k < n; k++) {
        uint32_t b = m.border[k];
        const uint8_t *keys = NULL;
        for (unsigned p = 0; p < naggs && !keys; p++)
            keys = bundle_ent(&m, b, p)->keys;
        if (fmt) {
            struct dfmt_arg a[DIF_RECMAX];
            unsigned na = decode(c, types, keys, a, DIF_RECMAX);
            struct aggval_ctx x = { &m, b, 0 };
            dfmt_printf(&c->out, fmt, a, na, aggval, &x);
            continue;
        }
        if (hist.on) {
            hist_row(c, &hist, types, keys, bundle_ent(&m, b, 0));
            continue;
        }
        if (pack) {
            dcons_keys_packed(c, types, keys);
            dcons_pack_row(c, aggs[0], bundle_ent(&m, b, 0)->vals, plo, phi);
            continue;
        }
        print_keys(c, types, keys, merge);
        for (unsigned p = 0; p < naggs; p++) {
            const struct aggent *e = bundle_ent(&m, b, p);
            if (c->obj->aggs[e->agg].dg_func >= DIF_AGG_QUANTIZE)
                print_dist(c, e->agg, e->vals);
            else
                outf_int(&c->out, " %16d", agg_value(c, e->agg, e->vals));
        }
        out(c, "\n");
    }
    if (m.full)
        dfmt_puts(&c->err, "dtrace: aggregation too large to print in full\n");
}

void dcons_print_agg(struct dcons *c, unsigned agg, const char *fmt)
{
    print_aggs(c, &agg, 1, fmt, 1);
}

void dcons_print_aggs(struct dcons *c, const unsigned *aggs, unsigned naggs, const char *fmt)
{
    print_aggs(c, aggs, naggs, fmt, 1);
}

static void agg_trunc(struct dcons *c, unsigned agg, int have_n, int64_t n)
{
    struct merge m;
    unsigned cnt = collect(c, &agg, 1, &m);
    for (unsigned k = 0; k < cnt; k++) {
        /* sorted ascending: keep the top n (the last ones), or bottom -n */
        int keep = have_n && (n >= 0 ? (int64_t)k >= (int64_t)cnt - n : (int64_t)k < -n);
        if (!keep)
            dvm_agg_remove(c->st, agg, bundle_ent(&m, m.border[k], 0)->keys, m.keylen);
    }
}

/* ---- setopt( ) ---------------------------------------------------------------------------- */

static int lower_eq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if ((*a | 0x20) != *b)
            return 0;
    return *a == *b;
}

/* runtime_value: a run-time option's value as dt_opt_runtime reads it: none (set), "" (unset),
 * yes/no, enable(d)/disable(d), true/false, on/off, set/unset in any case, or a number;
 * returns 0 if malformed. */
static int runtime_value(const char *s, uint64_t *v)
{
    static const char *const on[] = { "yes", "enable", "enabled", "true", "on", "set" };
    static const char *const off[] = { "no", "disable", "disabled", "false", "off", "unset" };
    if (!s) {
        *v = 1;
        return 1;
    }
    *v = 0;
    if (!*s)
        return 1;
    for (unsigned k = 0; k < sizeof(on) / sizeof(on[0]); k++) {
        if (lower_eq(s, on[k]))
            return *v = 1, 1;
        if (lower_eq(s, off[k]))
            return 1;
    }
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || *v > UINT64_MAX / 10)
            return 0;
        *v = *v * 10 + (uint64_t)(*s - '0');
    }
    return 1;
}

/* setopt: the options the consumer acts on change for what it prints next; the other run-time
 * options are accepted and change nothing here; anything else is reported as libdtrace's
 * dt_setopt does, and tracing goes on. */
static void setopt(struct dcons *c, const char *name, const char *val)
{
    static const char *const quiet_ones[] = { "flowindent", "rawbytes", "stackindent",
        "aggpercpu", "switchrate", "aggrate", "statusrate",
        "cleanrate", "stackframes", "ustackframes", "jstackframes", "prio" };
    /* the options acted on: a flag (set when nonzero), or a position (at most 0xffff) */
    const struct { const char *name; int *flag; unsigned *pos; } acted[] = {
        { "quiet", &c->quiet, NULL }, { "aggsortkey", &c->aggsortkey, NULL },
        { "aggsortrev", &c->aggsortrev, NULL }, { "aggzoom", &c->aggzoom, NULL },
        { "agghist", &c->agghist, NULL }, { "aggpack", &c->aggpack, NULL },
        { "aggsortpos", NULL, &c->aggsortpos }, { "aggsortkeypos", NULL, &c->aggsortkeypos },
    };
    uint64_t v;
    int known = 0;
    for (unsigned k = 0; k < sizeof(acted) / sizeof(acted[0]); k++) {
        if (d_strcmp(name, acted[k].name))
            continue;
        known = 1;
        if (!runtime_value(val, &v))
            goto bad;
        if (acted[k].flag)
            *acted[k].flag = v != 0;
        else
            *acted[k].pos = v > 0xffff ? 0xffff : (unsigned)v;
        return;
    }
    for (unsigned k = 0; k < sizeof(quiet_ones) / sizeof(quiet_ones[0]); k++)
        if (!d_strcmp(name, quiet_ones[k]))
            return;
bad:
    outf_str(&c->err, "dtrace: couldn't set option \"%s\" to ", name);
    outf_str(&c->err, "\"%s\": ", val ? val : "");
    dfmt_puts(&c->err, known ? "Invalid value for specified option\n" : "Invalid option name\n");
}

/* ---- records ----------------------------------------------------------------------------- */

static void probe_name(struct dcons *c, const struct dif_probe *p, const struct dcons_out *o)
{
    struct dfmt_arg a[4] = { { 's', 0, dif_str(c->obj, p->dp_prov) },
                             { 's', 0, dif_str(c->obj, p->dp_mod) },
                             { 's', 0, dif_str(c->obj, p->dp_func) },
                             { 's', 0, dif_str(c->obj, p->dp_name) } };
    dfmt_printf(o, "%s:%s:%s:%s", a, 4, NULL, NULL);
}

/* error_head: "dtrace: error on enabled probe ID E (ID P: prov:mod:func:name): " */
static void error_head(struct dcons *c, uint32_t epid)
{
    const struct dif_obj *o = c->obj;
    outf_int(&c->err, "dtrace: error on enabled probe ID %u (ID ", epid);
    if (epid >= 1 && epid <= o->hdr->dh_necbs) {
        const struct dif_probe *p = &o->probes[o->ecbs[epid - 1].de_probe];
        outf_int(&c->err, "%u: ", p->dp_id);
        probe_name(c, p, &c->err);
    } else {
        dfmt_puts(&c->err, "?: ?");
    }
    dfmt_puts(&c->err, "): ");
}

static void error_record(struct dcons *c, const struct dvm_rechdr *h)
{
    struct dvm_errrec er;
    memcpy(&er, h + 1, sizeof(er));
    if (c->noerror)
        return;
    error_head(c, er.er_epid);
    dfmt_puts(&c->err, dvm_fault_name(er.er_fault));
    if (er.er_fault == DVM_F_BADADDR || er.er_fault == DVM_F_BADALIGN)
        outf_int(&c->err, " (0x%x)", (int64_t)er.er_addr);
    if (er.er_action)
        outf_int(&c->err, " in action #%u", er.er_action);
    else
        dfmt_puts(&c->err, " in predicate");
    outf_int(&c->err, " at DIF offset %u\n", er.er_offset);
}

static void buf_write(void *arg, const char *s, size_t n)
{
    char *b = arg;
    size_t l = d_strlen(b);
    if (n > DCONS_CMDMAX - 1 - l)
        n = DCONS_CMDMAX - 1 - l;
    memcpy(b + l, s, n);
    b[l + n] = 0;
}

/* host_action: setopt( ), freopen( ) and system( ), done by the front end as libdtrace's
 * consumer does them; a failure is reported as libdtrace's dt_setopt/dt_handle_liberr do,
 * against the clause's probe, and tracing goes on. */
static void host_action(struct dcons *c, uint32_t epid, const struct dif_act *a,
                        const struct dfmt_arg *args, unsigned n)
{
    const struct dif_obj *o = c->obj;
    const struct dcons_host *h = c->host;
    const char *why = "not available in this consumer";
    int rc = -1;
    if (a->da_kind == DIF_ACT_SETOPT) {
        const char *name = dif_str(o, a->da_arg);
        const char *val = a->da_arg2 == UINT32_MAX ? "1" : dif_str(o, a->da_arg2);
        if (!h || !h->setopt) { /* a consumer with no front end's options: its own */
            setopt(c, name, a->da_arg2 == UINT32_MAX ? NULL : val);
            return;
        }
        rc = h->setopt(c, name, val, &why);
        if (rc != 0) {
            error_head(c, epid);
            outf_str(&c->err, "couldn't set option \"%s\"", name);
            outf_str(&c->err, " to \"%s\"", val);
            outf_str(&c->err, ": %s\n", why);
        }
        return;
    }
    if (a->da_kind == DIF_ACT_RAISE) {   /* args: the signal, the firing process */
        if (n == 2 && h && h->raise)
            rc = h->raise(c, args[1].i, args[0].i, &why);
        if (rc != 0) {
            error_head(c, epid);
            outf_int(&c->err, "raise(%d) ", args[0].i);
            outf_int(&c->err, "of pid %d failed: ", args[1].i);
            outf_str(&c->err, "%s\n", why);
        }
        return;
    }
    if (a->da_kind == DIF_ACT_FREOPEN) {
        if (h && h->freopen)
            rc = h->freopen(c, dif_str(o, a->da_arg), &why);
    } else {
        char cmd[DCONS_CMDMAX];
        struct dcons_out b = { buf_write, cmd };
        cmd[0] = 0;
        dfmt_printf(&b, dif_str(o, a->da_arg), args, n, NULL, NULL);
        if (h && h->system)
            rc = h->system(c, cmd, &why);
    }
    if (rc != 0) {
        error_head(c, epid);
        outf_str(&c->err, "%s( ) failed: ", a->da_kind == DIF_ACT_FREOPEN ? "freopen" : "system");
        outf_str(&c->err, "%s\n", why);
    }
}

/* record_head: the line's start for a record of probe p on cpu, unless quiet: the flow line
 * (-x flowindent), else "CPU ID FUNCTION:NAME" (the header above the first). */
static void record_head(struct dcons *c, unsigned cpu, const struct dif_probe *p)
{
    const struct dif_obj *o = c->obj;
    if (c->quiet)
        return;
    if (c->flowindent) {
        dcons_flow_line(c, cpu, o, p);
        return;
    }
    if (!c->header_done) {
        struct dfmt_arg a[3] = { { 's', 0, "CPU" }, { 's', 0, "ID" }, { 's', 0, "FUNCTION:NAME" } };
        dfmt_printf(&c->out, "%3s %6s %32s\n", a, 3, NULL, NULL);
        c->header_done = 1;
    }
    char fn[160];
    d_strlcpy(fn, dif_str(o, p->dp_func), sizeof(fn));
    d_strlcat(fn, ":", sizeof(fn));
    d_strlcat(fn, dif_str(o, p->dp_name), sizeof(fn));
    struct dfmt_arg a[3] = { { 'l', cpu, 0 }, { 'l', p->dp_id, 0 }, { 's', 0, fn } };
    dfmt_printf(&c->out, "%3d %6d %32s ", a, 3, NULL, NULL);
}

/* printa_action: printa( ) of clause cl's action k, with the aggregations of the joined
 * actions after it (printa( ) of several); a joined action itself prints nothing. */
static void printa_action(struct dcons *c, const struct dif_clause *cl, uint32_t k)
{
    const struct dif_obj *o = c->obj;
    const struct dif_act *a = &o->acts[cl->dc_act + k];
    unsigned aggs[DIF_PRINTA_MAX], na = 0;
    if (a->da_arg2 == DIF_PRINTA_JOINED)
        return;
    aggs[na++] = a->da_arg;
    for (uint32_t j = k + 1; j < cl->dc_nacts && na < DIF_PRINTA_MAX; j++) {
        const struct dif_act *b = &o->acts[cl->dc_act + j];
        if (b->da_kind != DIF_ACT_PRINTA || b->da_arg2 != DIF_PRINTA_JOINED)
            break;
        aggs[na++] = b->da_arg;
    }
    dcons_print_aggs(c, aggs, na, a->da_arg2 == UINT32_MAX ? NULL : dif_str(o, a->da_arg2));
}

/* record_action: what clause cl's action k does with its part of the record at data, args
 * (n of them) its values decoded; epid the record's enabling. */
static void record_action(struct dcons *c, uint32_t epid, const struct dif_clause *cl,
                          uint32_t k, const uint8_t *data, struct dfmt_arg *args, unsigned n)
{
    const struct dif_obj *o = c->obj;
    const struct dif_act *a = &o->acts[cl->dc_act + k];
    switch (a->da_kind) {
    case DIF_ACT_TRACE:
        if (n == 1)
            print_value(c, &args[0]);
        break;
    case DIF_ACT_PRINTF:
        dfmt_printf(&c->out, dif_str(o, a->da_arg), args, n, NULL, NULL);
        break;
    case DIF_ACT_TRACEMEM:
        print_mem(c, data + a->da_offset, a->da_arg);
        break;
    case DIF_ACT_PRINTA:
        printa_action(c, cl, k);
        break;
    case DIF_ACT_EXIT:
        if (n == 1) {
            c->exit_status = (int)args[0].i;
            c->exited = 1;
        }
        break;
    case DIF_ACT_CLEAR:
        dvm_agg_clear(c->st, a->da_arg);
        break;
    case DIF_ACT_TRUNC:
        agg_trunc(c, a->da_arg, n == 1, n == 1 ? args[0].i : 0);
        break;
    case DIF_ACT_NORMALIZE:
        if (n == 1 && args[0].i > 0)
            c->norm[a->da_arg] = args[0].i;
        break;
    case DIF_ACT_DENORMALIZE:
        c->norm[a->da_arg] = 1;
        break;
    case DIF_ACT_STACK: /* libdtrace's dt_print_stack (trace/d/cstack.c) */
        dcons_stack_print(&c->out, n ? (uint64_t)args[0].i : 0);
        break;
    case DIF_ACT_SETOPT: case DIF_ACT_FREOPEN: case DIF_ACT_SYSTEM: case DIF_ACT_RAISE:
        host_action(c, epid, a, args, n);
        break;
    default:
        break;
    }
}

void dcons_record(void *arg, const struct dvm_rechdr *h)
{
    struct dcons *c = arg;
    const struct dif_obj *o = c->obj;
    if (h->rh_epid == DVM_EPID_ERROR) {
        if (h->rh_size >= sizeof(*h) + sizeof(struct dvm_errrec))
            error_record(c, h);
        return;
    }
    if (h->rh_epid == 0 || h->rh_epid > o->hdr->dh_necbs)
        return;
    const struct dif_ecb *e = &o->ecbs[h->rh_epid - 1];
    const struct dif_clause *cl = &o->clauses[e->de_clause];
    const uint8_t *data = (const uint8_t *)(h + 1);
    if (h->rh_size < sizeof(*h) + cl->dc_recsize)
        return;
    record_head(c, h->rh_cpu, &o->probes[e->de_probe]);
    for (uint32_t k = 0; k < cl->dc_nacts; k++) {
        const struct dif_act *a = &o->acts[cl->dc_act + k];
        struct dfmt_arg args[DIF_RECMAX];
        /* tracemem's record is raw bytes, not values of its types */
        unsigned n = a->da_kind == DIF_ACT_TRACEMEM
                         ? 0 : decode(c, dif_str(o, a->da_types), data + a->da_offset, args,
                                      DIF_RECMAX);
        record_action(c, h->rh_epid, cl, k, data, args, n);
    }
    /* a dump ends its own line */
    if (!c->quiet && !(cl->dc_nacts && o->acts[cl->dc_act + cl->dc_nacts - 1].da_kind ==
                                           DIF_ACT_TRACEMEM))
        out(c, "\n");
}

/* droptag: with -x droptags, each drop report names its kind as libdtrace's dt_droptag. */
static void droptag(struct dcons *c, const char *tag)
{
    dfmt_puts(&c->err, "dtrace: ");
    if (c->droptags) {
        dfmt_puts(&c->err, "[");
        dfmt_puts(&c->err, tag);
        dfmt_puts(&c->err, "] ");
    }
}

static void report(struct dcons *c, uint64_t n, const char *what, unsigned cpu)
{
    droptag(c, what[0] == 'd' ? "DTRACEDROP_PRINCIPAL" : "DTRACEDROP_AGGREGATION");
    outf_int(&c->err, "%u ", (int64_t)n);
    dfmt_puts(&c->err, what);
    outf_int(&c->err, n == 1 ? " on CPU %u\n" : "s on CPU %u\n", cpu);
}

/* report_total: a count of drops of all CPUs that grew since *seen, said as libdtrace says it
 * ("one" for 1, else "many", with the number; then tail) under its tag; *seen the count now. */
static void report_total(struct dcons *c, uint64_t now, uint64_t *seen, const char *tag,
                         const char *one, const char *many, const char *tail)
{
    if (now <= *seen)
        return;
    droptag(c, tag);
    outf_int(&c->err, now - *seen == 1 ? one : many, (int64_t)(now - *seen));
    if (tail)
        dfmt_puts(&c->err, tail);
    *seen = now;
}

// A count the engine may be raising while it is read (the board's consumer reads the kernel's
// counts through its mapping while the other CPUs fire): read once, so that what is reported
// and what is remembered as seen are the same value. (Read twice, the drops that came between
// the report and the remembering were never said: 13 of a burst's on qemu-virt-a53.)
static uint64_t count_now(const uint64_t *n)
{
    return *(const volatile uint64_t *)n;
}

void dcons_drops(struct dcons *c)
{
    uint64_t dyn = 0, spec = 0, failed = 0, dbl = 0;
    for (unsigned cpu = 0; cpu < c->st->opts.ncpu; cpu++) {
        const struct dvm_stats *s = &c->st->stats[cpu];
        uint64_t drops = count_now(&s->drops), aggdrops = count_now(&s->aggdrops);
        if (drops > c->seen_drops[cpu]) {
            report(c, drops - c->seen_drops[cpu], "drop", cpu);
            c->seen_drops[cpu] = drops;
        }
        if (aggdrops > c->seen_aggdrops[cpu]) {
            report(c, aggdrops - c->seen_aggdrops[cpu], "aggregation drop", cpu);
            c->seen_aggdrops[cpu] = aggdrops;
        }
        dyn += count_now(&s->dynvardrops);
        spec += count_now(&s->specdrops);
        failed += count_now(&s->specfailed);
        dbl += count_now(&c->st->dblerrors[cpu]);
    }
    report_total(c, dyn, &c->seen_dyndrops, "DTRACEDROP_DYNAMIC", "%u dynamic variable drop\n",
                 "%u dynamic variable drops\n", NULL);
    report_total(c, spec, &c->seen_specdrops, "DTRACEDROP_SPEC", "%u speculative drop\n",
                 "%u speculative drops\n", NULL);
    report_total(c, failed, &c->seen_specfailed, "DTRACEDROP_SPECUNAVAIL", "%u failed speculation",
                 "%u failed speculations", " (no speculative buffer available)\n");
    report_total(c, dbl, &c->seen_dblerrors, "DTRACEDROP_DBLERROR", "%u error", "%u errors",
                 " in ERROR probe enabling\n");
}

/* dcons_final: the unprinted aggregations, after one blank line, one after the other with no
 * line between them (libdtrace walks them all as one sorted set: dt_print_agg). */
void dcons_final(struct dcons *c)
{
    out(c, "\n");
    for (unsigned k = 0; k < c->obj->hdr->dh_naggs; k++)
        if (!c->printed[k])
            print_aggs(c, &k, 1, NULL, 0);
}

static void list_line(const struct dcons_out *out, int64_t id, const char *prov, const char *mod,
                      const char *func, const char *name)
{
    struct dfmt_arg a[5] = { { 'l', id, 0 }, { 's', 0, prov }, { 's', 0, mod },
                             { 's', 0, func }, { 's', 0, name } };
    dfmt_printf(out, "%5d %10s %17s %33s %s\n", a, 5, NULL, NULL);
}

void dcons_list_probes(const struct dcons_out *out, const struct dif_obj *o)
{
    struct dfmt_arg h[5] = { { 's', 0, "ID" }, { 's', 0, "PROVIDER" }, { 's', 0, "MODULE" },
                             { 's', 0, "FUNCTION" }, { 's', 0, "NAME" } };
    dfmt_printf(out, "%5s %10s %17s %33s %s\n", h, 5, NULL, NULL);
    if (o) {
        for (uint32_t k = 0; k < o->hdr->dh_nprobes; k++) {
            const struct dif_probe *p = &o->probes[k];
            list_line(out, p->dp_id, dif_str(o, p->dp_prov), dif_str(o, p->dp_mod),
                      dif_str(o, p->dp_func), dif_str(o, p->dp_name));
        }
        return;
    }
    for (uint32_t id = dprobe_next(0); id; id = dprobe_next(id)) {
        struct dprobe_desc d;
        if (dprobe_get(id, &d) == 0)
            list_line(out, id, d.prov, d.mod, d.func, d.name);
    }
}
