// SPDX-License-Identifier: MIT
// The aggpack option: a quantize( ) or lquantize( ) aggregation printed packed, one line per
// key, as libdtrace's dt_print_quantize_packed / dt_print_lquantize_packed lay it out. Every
// key of the aggregation shares one range of buckets (dt_aggregate_minmaxbin: from the
// lowest non-zero bucket of any key to the highest, one more either side as the plain table
// shows; lquantize always its whole range), drawn under one header of a dash per bucket
// between "min" and "max". A bucket is one character: blank for zero, a level of
// "__xxxxXX" (ascii) or U+2581..U+2588 (utf8) for a positive count, of "vvvvVV" for a
// negative one, against the range's total (aggzoom: its largest bucket at 95 %). Then the
// sum of the buckets. Portable: no stdio; prints through the consumer's sink.
#include <d/dcons.h>
#include "dutil.h"

int dcons_pack_on(const struct dcons *c, unsigned agg)
{
    int f = c->obj->aggs[agg].dg_func;
    return c->aggpack && (f == DIF_AGG_QUANTIZE || f == DIF_AGG_LQUANTIZE);
}

void dcons_pack_bins(const struct dcons *c, unsigned agg, const int64_t *v, unsigned *lo,
                     unsigned *hi)
{
    unsigned nv = c->st->agg_vals[agg], first = nv, last = 0;
    if (c->obj->aggs[agg].dg_func == DIF_AGG_LQUANTIZE) {
        first = 0;
        last = nv - 1;
    } else {
        for (unsigned k = 0; k < nv; k++)
            if (v[k]) {
                first = first < k ? first : k;
                last = k;
            }
        if (first == nv) /* no data (cleared, or negative increments): the zero bucket */
            first = last = DIF_QUANTIZE_ZERO;
    }
    *lo = first < *lo ? first : *lo;
    *hi = last > *hi ? last : *hi;
}

/* shown: the buckets printed: quantize's range one wider each side (not below the lowest
 * bucket, nor below the zero bucket when it starts there); lquantize's, whole already, as is */
static void shown(const struct dcons *c, unsigned agg, unsigned *lo, unsigned *hi)
{
    if (*lo != 0 && *lo != DIF_QUANTIZE_ZERO)
        (*lo)--;
    if (*hi < c->st->agg_vals[agg] - 1)
        (*hi)++;
}

/* ndigits: the width libdtrace's dt_ndigits gives a bucket value: its digits (one more for a
 * minus sign, a power of ten counted one short as there), never under 4. */
static int ndigits(int64_t v)
{
    int n = 1 + (v < 0);
    uint64_t m = v < 0 ? 0 - (uint64_t)v : (uint64_t)v, p = 10;
    for (; m > p; p *= 10) {
        n++;
        if (p > UINT64_MAX / 10)
            break;
    }
    return n < 4 ? 4 : n;
}

/* put: one value (s NULL: v) in a field of width columns (negative: left-aligned) */
static void put(struct dcons *c, const char *fmt, int width, int64_t v, const char *s)
{
    struct dfmt_arg a[2] = { { 'l', width, 0 }, { s ? 's' : 'l', v, s } };
    dfmt_printf(&c->out, fmt, a, 2, NULL, NULL);
}

void dcons_pack_head(struct dcons *c, unsigned agg, int width, unsigned lo, unsigned hi)
{
    const struct dif_agg *g = &c->obj->aggs[agg];
    int minw = 7, maxw = 8;
    shown(c, agg, &lo, &hi);
    if (g->dg_func == DIF_AGG_QUANTIZE) {
        minw = ndigits(dvm_agg_bucket_value(g, lo));
        maxw = ndigits(dvm_agg_bucket_value(g, hi));
    }
    put(c, "\n%*s", width, 0, width > 0 ? "key" : "");
    put(c, " %*s .", minw, 0, "min");
    for (unsigned k = lo; k <= hi; k++)
        dfmt_puts(&c->out, "-");
    put(c, ". %*s | count\n", -maxw, 0, "max");
}

/* glyph: one bucket's character, as dt_print_packed */
static void glyph(struct dcons *c, int64_t v, struct dcons_bar_total total, int utf8)
{
    static const char ascii_neg[] = "__xxxxXXvvvvVV"; /* positive levels 0-7, negative 0-5 */
    unsigned level = dcons_bar_depth(v, total, v < 0 ? 5 : 7, c->aggzoom);
    char s[4] = { ' ', 0, 0, 0 };
    if (v < 0)
        s[0] = ascii_neg[8 + level];
    else if (v && utf8) { /* U+2581 + level in UTF-8: e2 96 81.. */
        s[0] = (char)0xe2;
        s[1] = (char)0x96;
        s[2] = (char)(0x81 + level);
    } else if (v)
        s[0] = ascii_neg[level];
    dfmt_puts(&c->out, s);
}

void dcons_pack_row(struct dcons *c, unsigned agg, const int64_t *v, unsigned lo, unsigned hi)
{
    const struct dif_agg *g = &c->obj->aggs[agg];
    int quant = g->dg_func == DIF_AGG_QUANTIZE;
    int64_t minval, maxval;
    char label[32];
    shown(c, agg, &lo, &hi);
    minval = dvm_agg_bucket_value(g, lo);
    maxval = dvm_agg_bucket_value(g, hi);
    dcons_bucket_label(g, c->st->agg_vals[agg], lo, label, sizeof(label));
    if (quant) /* quantize: " %*d" as wide as its value; lquantize: "< base" in 8 */
        put(c, " %*d :", ndigits(minval), minval, NULL);
    else
        put(c, "%*s :", 8, 0, label);
    struct dcons_bar_total total = { 0, 0 };
    int64_t count = 0;
    for (unsigned k = lo; k <= hi; k++) {
        uint64_t mag = v[k] < 0 ? 0 - (uint64_t)v[k] : (uint64_t)v[k];
        count += v[k];
        if (!c->aggzoom) {
            total.lo += mag;
            total.hi += total.lo < mag;
        } else if (mag > total.lo) {
            total.lo = mag;
        }
    }
    /* encoding unset: utf8 unless TERM names a terminal known not to draw it (dt_print_packed) */
    int utf8 = c->encoding == DCONS_ENC_UTF8 || (c->encoding == DCONS_ENC_UNSET && !c->term_ascii);
    for (unsigned k = lo; k <= hi; k++)
        glyph(c, v[k], total, utf8);
    dcons_bucket_label(g, c->st->agg_vals[agg], hi, label, sizeof(label));
    if (quant)
        put(c, ": %*d", -ndigits(maxval), maxval, NULL);
    else
        put(c, ": %*s", -8, 0, label);
    put(c, " | %*d\n", 0, count, NULL);
}
