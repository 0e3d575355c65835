// SPDX-License-Identifier: MIT
// kevsql's declared columns (ks.h struct ks_rcol): the one function that reads any declared
// column of a typed table from its row, a model record or a row of the first pass; the part of
// a union table (ks.h struct ks_part) that declares a record's columns; the rows of a
// first-pass table declared as one of the trace's arrays (KS_ROWS). The tables (ks_tables.c)
// say where each value is and how it reads; this file says what each way means.
#include <string.h>

#include "ks.h"

SQLITE_EXTENSION_INIT3

// A declared column's offsets are 16 bits: every row struct a table gives fits.
_Static_assert(sizeof(struct ks_rec) < 65536, "a queued record's offsets fit a column's 16 bits");
_Static_assert(sizeof(struct ks_thread) + sizeof(struct ks_proc) + sizeof(struct ks_dl) +
               sizeof(struct ks_inv) + sizeof(struct ks_cpu_sum) + sizeof(struct kx_gap) < 65536,
               "a first pass's row's offsets fit a column's 16 bits");
_Static_assert(sizeof(struct ks_trace) < 65536, "KS_ROWS's offsets in a trace fit 16 bits");

// An integer field of a row as declared (sign-extended when signed).
static int64_t ks_rcol_int(const void *row, unsigned off, unsigned size, int sign)
{
    const uint8_t *p = (const uint8_t *)row + off;
    switch (size) {
    case 1: { uint8_t v; memcpy(&v, p, 1); return sign ? (int8_t)v : v; }
    case 2: { uint16_t v; memcpy(&v, p, 2); return sign ? (int16_t)v : v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return sign ? (int32_t)v : (int64_t)v; }
    default: { uint64_t v; memcpy(&v, p, 8); return (int64_t)v; }
    }
}

// Whether the column is NULL by its declared rule, given its field's value.
static int is_null(const struct ks_rcol *c, int64_t v)
{
    switch (c->null) {
    case KS_RN_NEG: return c->sign ? v < 0 : 0;
    case KS_RN_ZERO: return v == 0;
    default: return 0;
    }
}

// Whether the row's other field allows the column a value (enum ks_rc_if).
static int when_ok(const struct ks_rcol *c, const void *row)
{
    if (c->when_if == KS_RI_ALWAYS)
        return 1;
    int64_t w = ks_rcol_int(row, c->when, c->when_size, c->when_sign);
    switch (c->when_if) {
    case KS_RI_SET: return w != 0;
    case KS_RI_CLEAR: return w == 0;
    case KS_RI_EQ: return w == c->when_v;
    default: return w >= 0;
    }
}

// A column without a value: NULL, or -1 where Perfetto writes a slice that did not end so.
static void result_none(const struct ks_rcol *c, sqlite3_context *ctx)
{
    if (c->unended)
        sqlite3_result_int64(ctx, -1);
    else
        sqlite3_result_null(ctx);
}

void ks_rcol_result(const struct ks_rcol *c, const struct ks_row *r, sqlite3_context *ctx)
{
    int64_t v = 0;
    if (!when_ok(c, r->p)) {
        result_none(c, ctx);
        return;
    }
    switch (c->kind) {
    case KS_RC_FN: c->fn(r, ctx); return;
    case KS_RC_NULL: sqlite3_result_null(ctx); return;
    case KS_RC_CONST: sqlite3_result_int64(ctx, c->k); return;
    case KS_RC_CONST_TEXT: ks_result_text(ctx, c->text); return;
    case KS_RC_DOUBLE: {
        double d;
        memcpy(&d, (const uint8_t *)r->p + c->off, sizeof(d));
        sqlite3_result_double(ctx, d);
        return;
    }
    case KS_RC_TEXT: {
        const char *s = (const char *)r->p + c->off;
        if (c->null == KS_RN_EMPTY && !s[0])
            result_none(c, ctx);
        else
            ks_result_text(ctx, s);
        return;
    }
    default: break;
    }
    v = ks_rcol_int(r->p, c->off, c->size, c->sign);
    if (c->kind == KS_RC_DUR) { // its end says whether it has one
        int64_t end = ks_rcol_int(r->p, c->off2, c->size, c->sign);
        if (c->null == KS_RN_BEFORE ? end < v : is_null(c, end))
            result_none(c, ctx);
        else
            sqlite3_result_int64(ctx, ks_ns(r->t, (uint64_t)end) - ks_ns(r->t, (uint64_t)v));
        return;
    }
    if (is_null(c, v)) {
        result_none(c, ctx);
        return;
    }
    switch (c->kind) {
    case KS_RC_INT: sqlite3_result_int64(ctx, v); break;
    case KS_RC_NS: case KS_RC_SPAN: sqlite3_result_int64(ctx, ks_ns(r->t, (uint64_t)v)); break;
    case KS_RC_UTID: ks_result_thread(ctx, r->t, (int)v); break;
    case KS_RC_NAME: ks_result_text(ctx, c->names((unsigned)v)); break;
    case KS_RC_ELEM: {
        unsigned n = (unsigned)ks_rcol_int(r->p, c->off2, 4, 0);
        if (c->idx < n)
            sqlite3_result_int64(ctx, ks_rcol_int(r->p, c->off + c->idx * c->size, c->size,
                                                  c->sign));
        else
            result_none(c, ctx);
        break;
    }
    case KS_RC_FLAG: sqlite3_result_int(ctx, v != 0); break;
    case KS_RC_EQ: sqlite3_result_int(ctx, v == c->k); break;
    case KS_RC_SLICE: sqlite3_result_int64(ctx, (int64_t)((uint64_t)v << 3 | (uint64_t)c->k)); break;
    case KS_RC_TRACK:
        sqlite3_result_int64(ctx, (int64_t)c->k << 24 | (int64_t)((uint64_t)v & 0xffffffu));
        break;
    default: sqlite3_result_null(ctx); break;
    }
}

unsigned ks_rows_n(const struct ks_table *tab, struct ks_trace *t)
{
    unsigned n;
    if (tab->nrows)
        return tab->nrows(t);
    memcpy(&n, (const char *)t + tab->nrows_at, sizeof(n));
    return n;
}

const void *ks_row_at(const struct ks_table *tab, struct ks_trace *t, unsigned i, void *buf)
{
    const char *rows;
    if (tab->row)
        return tab->row(t, i, buf);
    memcpy(&rows, (const char *)t + tab->rows_at, sizeof(rows));
    return rows + (size_t)i * tab->row_size;
}

const struct ks_part *ks_part_of(const struct ks_table *t, const struct ks_rec *rec)
{
    for (unsigned i = 0; i < t->nparts; i++)
        if (t->parts[i].kind == rec->kind && (t->parts[i].sub < 0 || t->parts[i].sub == rec->sub))
            return &t->parts[i];
    return NULL;
}
