// SPDX-License-Identifier: MIT
// The model's records as kevsql's rows (ks.h, "tables"): one adapter per kind of record the
// analyses give (kx_rows.h, struct kx_sink), each making the record a table's row struct holds
// (enum ks_kind) and handing it to the table that walks. A table says which kinds it takes
// (ks_table.takes) and, when a record is not one row as it is, what rows it makes of it
// (ks_table.rows: a filter, parts, rows of another kind); its columns are declared over the
// record's struct (ks_tables.c). The records come in the order the model completes them.
#include "ks.h"
#include <string.h>

SQLITE_EXTENSION_INIT3

// A record for the walk's table: its rows, or itself.
static void take(struct ks_walk *w, const struct ks_rec *rec)
{
    if (w->tab->rows)
        w->tab->rows(w, rec);
    else
        ks_push(w, rec);
}

// A record of kind `kind` whose struct is a copy of the model's (n bytes at r).
static void take_copy(void *user, enum ks_kind kind, const void *r, size_t n)
{
    struct ks_rec rec = { .kind = kind };
    memcpy(&rec.u, r, n);
    take(ks_walk_of(user), &rec);
}

static void on_state(void *u, const struct kx_state_row *r) { take_copy(u, KS_STATE, r, sizeof *r); }
static void on_kcall(void *u, const struct kx_kcall_row *r) { take_copy(u, KS_KCALL, r, sizeof *r); }
static void on_irq(void *u, const struct kx_irq_row *r) { take_copy(u, KS_IRQ, r, sizeof *r); }
static void on_wait(void *u, const struct kw_wait *r) { take_copy(u, KS_WAIT, r, sizeof *r); }
static void on_func(void *u, const struct kx_func_row *r) { take_copy(u, KS_FUNC, r, sizeof *r); }
static void on_flow(void *u, const struct kx_flow_row *r) { take_copy(u, KS_FLOW, r, sizeof *r); }
static void on_chain(void *u, const struct kx_chain_row *r) { take_copy(u, KS_CHAIN, r, sizeof *r); }

// A message as its row holds it: the model's own record lives only during the call, and its
// parent is named by the parent's id.
static void on_msg(void *user, const struct kx_msg *g)
{
    struct ks_walk *w = ks_walk_of(user);
    struct ks_rec rec = { .kind = KS_MSG };
    struct ks_msg_rec *m = &rec.u.msg;
    m->id = g->id;
    m->client = g->client, m->server = g->server;
    m->irq = g->irq;
    m->pulse = g->pulse, m->error = g->error;
    m->client_pid = g->client_pid, m->srv_pid = g->srv_pid, m->coid = g->coid;
    m->rcvid = g->rcvid;
    m->t_send = g->t_send, m->t_recv = g->t_recv, m->t_reply = g->t_reply;
    m->parent = g->parent >= 0 ? w->s->q.m[g->parent].id : 0;
    take(w, &rec);
}

static void on_cpu(void *user, unsigned cpu, uint64_t t0, uint64_t t1, int th, unsigned what)
{
    struct ks_rec rec = { .kind = KS_CPU };
    rec.u.cpu = (struct ks_cpu_rec){ cpu, what, th, t0, t1 };
    take(ks_walk_of(user), &rec);
}

void ks_model_sink(const struct ks_table *tab, struct kx_sink *k)
{
    unsigned t = tab->takes;
    k->state = t & KS_TAKE(KS_STATE) ? on_state : NULL;
    k->kcall = t & KS_TAKE(KS_KCALL) ? on_kcall : NULL;
    k->irq = t & KS_TAKE(KS_IRQ) ? on_irq : NULL;
    k->msg = t & KS_TAKE(KS_MSG) ? on_msg : NULL;
    k->wait = t & KS_TAKE(KS_WAIT) ? on_wait : NULL;
    k->cpu = t & KS_TAKE(KS_CPU) ? on_cpu : NULL;
    k->func = t & KS_TAKE(KS_FUNC) ? on_func : NULL;
    k->flow = t & KS_TAKE(KS_FLOW) ? on_flow : NULL;
    k->chain = t & KS_TAKE(KS_CHAIN) ? on_chain : NULL;
}
