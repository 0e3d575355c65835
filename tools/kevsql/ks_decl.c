// SPDX-License-Identifier: MIT
// kevsql's declared tables (ks.h struct ks_decl): the rows of a table declared as an event and
// its columns. Each event of the declaration's (class, number) is decoded by the event table
// (kev_fields_decode) and becomes one row, its columns' values taken then, when the model is
// at that event; an event whose payload lacks a field a column reads makes no row (a damaged
// or short event), as the written-out tables skip one they cannot decode. The decoded fields
// live in the walk's state (one per cursor: cursors of one statement interleave).
#include <string.h>

#include "ks.h"
#include <trace/kev_events.h>

SQLITE_EXTENSION_INIT3

void ks_decl_on(struct ks_walk *w, const struct kev_event *e)
{
    const struct ks_decl *d = w->tab->decl;
    if (e->cls != d->cls || e->ev != d->ev)
        return;
    if (!w->state && !(w->state = sqlite3_malloc(sizeof(struct kev_fields))))
        return;
    struct kev_fields *fs = w->state;
    kev_fields_decode(w->r, e, fs);
    struct ks_rec rec;
    memset(&rec, 0, sizeof(rec));
    rec.kind = KS_DECL;
    struct ks_decl_rec *v = &rec.u.decl;
    v->id = w->nev;
    v->t = e->t64;
    v->cpu = e->cpu;
    v->th = -1;
    size_t used = 0;
    for (unsigned i = 0; i < w->tab->ncols && i < KS_DECL_COLS; i++) {
        const struct ks_dcol *c = &d->cols[i];
        uint64_t x = 0, flag = 0;
        int has = c->field ? kev_field_num(kev_field_get(fs, c->field), &x) : 1;
        if (!has)
            return;                     // the event lacks it: no row
        switch (c->src) {
        case KS_DC_UTID: {
            struct kx_model *m = w->s ? &w->s->m : w->m;
            v->th = m ? kx_thread(m, kev_who_pid(x), kev_who_tid(x)) : -1;
            break;
        }
        case KS_DC_PID: v->v[i] = kev_who_pid(x); break;
        case KS_DC_TID: v->v[i] = kev_who_tid(x); break;
        case KS_DC_FIELD: case KS_DC_NAME: v->v[i] = (int64_t)x; break;
        case KS_DC_IF:
            if (!kev_field_num(kev_field_get(fs, c->cond), &flag))
                return;
            v->v[i] = (int64_t)x;
            if (!flag)
                v->null |= 1u << i;
            break;
        case KS_DC_MODEL: {
            int got = used < sizeof(v->text)
                          ? c->value(w, e, fs, &v->v[i], v->text + used,
                                         sizeof(v->text) - used) : 0;
            if (got == 2) {         // a text: its offset
                v->v[i] = (int64_t)used;
                used += strlen(v->text + used) + 1;
            } else if (!got) {
                v->null |= 1u << i;
            }
            break;
        }
        default: break;             // id, ts, cpu: the record's own
        }
    }
    ks_push(w, &rec);
}

void ks_decl_col(struct ks_walk *w, const struct ks_rec *rec, int col, sqlite3_context *ctx)
{
    const struct ks_decl_rec *v = &rec->u.decl;
    if (col < 0 || (unsigned)col >= KS_DECL_COLS || (v->null >> col & 1u)) {
        sqlite3_result_null(ctx);
        return;
    }
    const struct ks_dcol *c = &w->tab->decl->cols[col];
    switch (c->src) {
    case KS_DC_ID: sqlite3_result_int64(ctx, (sqlite3_int64)v->id); break;
    case KS_DC_TS: ks_result_ns(ctx, w->t, v->t, 1); break;
    case KS_DC_CPU: sqlite3_result_int(ctx, (int)v->cpu); break;
    case KS_DC_UTID: ks_result_thread(ctx, w->t, v->th); break;
    case KS_DC_NAME: ks_result_text(ctx, c->names((unsigned)v->v[col])); break;
    case KS_DC_MODEL:
        if (!strcmp(c->col.type, "TEXT"))
            ks_result_text(ctx, v->text + v->v[col]);
        else
            sqlite3_result_int64(ctx, v->v[col]);
        break;
    default: sqlite3_result_int64(ctx, v->v[col]); break;
    }
}
